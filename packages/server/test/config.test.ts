import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const CWD = path.join(os.tmpdir(), 'pgs-config-test');

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, CWD);
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(path.join(CWD, '.pgs'));
    expect(config.logLevel).toBe('info');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.adminToken).toBeUndefined();
    expect(config.trustProxy).toBe(false);
    expect(config.webhooksAllowPrivate).toBe(false);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads PGS_WEBHOOKS_ALLOW_PRIVATE as a boolean', () => {
    expect(loadConfig({ PGS_WEBHOOKS_ALLOW_PRIVATE: 'true' }, CWD).webhooksAllowPrivate).toBe(true);
    expect(() => loadConfig({ PGS_WEBHOOKS_ALLOW_PRIVATE: 'maybe' }, CWD)).toThrow(
      /PGS_WEBHOOKS_ALLOW_PRIVATE=maybe is invalid/,
    );
  });

  it('reads the variables it is given', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        PGS_DATA_DIR: 'var/pgs',
        PGS_LOG_LEVEL: 'debug',
        DATABASE_URL: 'postgres://u@db.example:5432/pgs',
        PGS_TRUST_PROXY: 'true',
        PGS_ADMIN_TOKEN: 'a-long-enough-admin-token',
        PGS_DOCS_URL: 'https://docs.example/pgs/',
      },
      CWD,
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.join(CWD, 'var/pgs'),
      logLevel: 'debug',
      databaseUrl: 'postgres://u@db.example:5432/pgs',
      trustProxy: true,
      adminToken: 'a-long-enough-admin-token',
      docsUrl: 'https://docs.example/pgs',
    });
    expect(loadConfig({ PGS_DATA_DIR: '/abs/dir' }, CWD).dataDir).toBe('/abs/dir');
  });

  it.each([
    ['PORT', 'abc', /65535/],
    ['PORT', '70000', /65535/],
    ['PORT', '-1', /65535/],
    ['PORT', '80.5', /65535/],
    ['PGS_LOG_LEVEL', 'loud', /\binfo\b.*\bdebug\b|\bdebug\b.*\binfo\b/],
    ['DATABASE_URL', 'mysql://x', /postgres/i],
    ['DATABASE_URL', 'not a url', /postgres/i],
    ['PGS_TRUST_PROXY', 'maybe', /\btrue\b.*\bfalse\b/],
    ['PGS_ADMIN_TOKEN', 'short', /\b16\b/],
  ])('%s=%s → ConfigError naming the variable and what it accepts', (name, value, accepts) => {
    let thrown: unknown;
    try {
      loadConfig({ [name]: value }, CWD);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as Error).message;
    expect(message).toContain(name);
    expect(message).toMatch(accepts);
  });

  it('does not echo a secret it refuses', () => {
    expect(() => loadConfig({ PGS_ADMIN_TOKEN: 'sh0rt-s3cret' }, CWD)).toThrow(ConfigError);
    expect(() => loadConfig({ PGS_ADMIN_TOKEN: 'sh0rt-s3cret' }, CWD)).not.toThrow(/sh0rt-s3cret/);
    const url = 'mysql://user:hunter2@db.example/x';
    expect(() => loadConfig({ DATABASE_URL: url }, CWD)).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: url }, CWD)).not.toThrow(/hunter2/);
  });
});

describe('model chains and providers (PGS_MODELS, PGS_TEST_MODELS)', () => {
  it('defaults to the offline engine for both modes, with the documented AI limits', () => {
    const config = loadConfig({}, CWD);
    expect(config.models).toEqual([{ provider: 'offline', model: 'pgs-offline-1' }]);
    expect(config.testModels).toEqual([{ provider: 'offline', model: 'pgs-offline-1' }]);
    expect(config.providers).toEqual({});
    expect(config).toMatchObject({
      aiTimeoutMs: 120_000,
      aiIdleTimeoutMs: 30_000,
      aiConcurrency: 8,
    });
  });

  it('reads a chain and the settings of exactly the providers it names', () => {
    const config = loadConfig(
      {
        PGS_MODELS: ' anthropic:claude-sonnet-4-5 , openai:gpt-4.1-mini,openai-compatible:llama3.1',
        PGS_TEST_MODELS: 'offline',
        ANTHROPIC_API_KEY: 'sk-ant-x',
        OPENAI_API_KEY: 'sk-o',
        OPENAI_BASE_URL: 'https://proxy.example/v1',
        PGS_OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
        PGS_AI_TIMEOUT_MS: '1000',
        PGS_AI_IDLE_TIMEOUT_MS: '1000',
        PGS_AI_CONCURRENCY: '3',
      },
      CWD,
    );
    expect(config.models).toEqual([
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      { provider: 'openai', model: 'gpt-4.1-mini' },
      { provider: 'openai-compatible', model: 'llama3.1' },
    ]);
    expect(config.providers).toEqual({
      anthropic: { apiKey: 'sk-ant-x', baseURL: undefined },
      openai: { apiKey: 'sk-o', baseURL: 'https://proxy.example/v1' },
      'openai-compatible': { baseURL: 'http://127.0.0.1:11434/v1', apiKey: undefined },
    });
    expect(config).toMatchObject({ aiTimeoutMs: 1000, aiIdleTimeoutMs: 1000, aiConcurrency: 3 });
  });

  it('names a model id that contains colons as written (e.g. Ollama tags)', () => {
    const config = loadConfig(
      {
        PGS_MODELS: 'openai-compatible:llama3.1:8b',
        PGS_OPENAI_COMPATIBLE_BASE_URL: 'http://h/v1',
      },
      CWD,
    );
    expect(config.models).toEqual([{ provider: 'openai-compatible', model: 'llama3.1:8b' }]);
  });

  it.each([
    [{ PGS_MODELS: 'gemini:pro' }, /PGS_MODELS.*unknown provider "gemini".*openai, anthropic/],
    [{ PGS_MODELS: 'openai' }, /PGS_MODELS.*names no model.*openai:/],
    [{ PGS_MODELS: 'offline,,openai:x', OPENAI_API_KEY: 'k' }, /PGS_MODELS.*empty entry/],
    [{ PGS_MODELS: 'openai:gpt-4.1-mini' }, /OPENAI_API_KEY is missing/],
    [{ PGS_MODELS: 'openai:gpt-4.1-mini', OPENAI_API_KEY: '   ' }, /OPENAI_API_KEY is missing/],
    [{ PGS_TEST_MODELS: 'anthropic:claude-sonnet-4-5' }, /ANTHROPIC_API_KEY is missing/],
    [{ PGS_MODELS: 'openai-compatible:llama3.1' }, /PGS_OPENAI_COMPATIBLE_BASE_URL is missing/],
    [{ PGS_AI_IDLE_TIMEOUT_MS: '999' }, /PGS_AI_IDLE_TIMEOUT_MS.*1000/],
    [{ PGS_AI_CONCURRENCY: '0' }, /PGS_AI_CONCURRENCY.*1 to 256/],
  ])('%o → a ConfigError saying what is wrong', (env, message) => {
    expect(() => loadConfig(env, CWD)).toThrow(ConfigError);
    expect(() => loadConfig(env, CWD)).toThrow(message);
  });
});

describe('starting with an invalid value', () => {
  let dataDir: string | undefined;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT', /65535/],
    [{ PGS_MODELS: 'anthropic:claude-sonnet-4-5' }, 'ANTHROPIC_API_KEY', /missing/],
    [{ PGS_MODELS: 'mistral:large' }, 'PGS_MODELS', /unknown provider/],
  ])(
    '%o: exits with code 1 and one stderr line naming %s, before listening',
    async (bad, name, what) => {
      dataDir ??= await mkdtemp(path.join(os.tmpdir(), 'pgs-config-test-'));
      const env: NodeJS.ProcessEnv = {};
      for (const [name, value] of Object.entries(process.env)) {
        if (!/^(PGS_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$|OPENAI_|ANTHROPIC_)/.test(name))
          env[name] = value;
      }
      const child = spawn(NODE, ['packages/server/src/main.ts'], {
        cwd: ROOT,
        env: { ...env, ...bad, PGS_DATA_DIR: dataDir, PGS_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`no exit within 20 s\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, 20_000);
        child.on('close', (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      expect(code, stderr).toBe(1);
      const lines = stderr.split('\n').filter((line) => line.includes(name));
      expect(lines.length, stderr).toBe(1);
      expect(lines[0]).toMatch(what);
      // A configuration mistake is a message, not a stack trace.
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stdout).not.toMatch(/listening/);
    },
    30_000,
  );
});
