import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { DEFAULT_PRICES } from '../src/models/prices.ts';

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

  it('reads the drain time-out, 5 s by default', () => {
    expect(loadConfig({}, CWD).drainTimeoutMs).toBe(5_000);
    expect(loadConfig({ PGS_DRAIN_TIMEOUT_MS: '250' }, CWD).drainTimeoutMs).toBe(250);
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
    [{ PGS_DRAIN_TIMEOUT_MS: '99' }, /PGS_DRAIN_TIMEOUT_MS.*100/],
  ])('%o → a ConfigError saying what is wrong', (env, message) => {
    expect(() => loadConfig(env, CWD)).toThrow(ConfigError);
    expect(() => loadConfig(env, CWD)).toThrow(message);
  });
});

describe('model prices (PGS_MODEL_PRICES)', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pgs-config-prices-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return name;
  };
  const failure = (env: Record<string, string>) => {
    try {
      loadConfig(env, dir);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('no ConfigError');
  };

  it('defaults to the built-in table', () => {
    expect(loadConfig({}, CWD).modelPrices).toBe(DEFAULT_PRICES);
  });

  it('merges a good file over the defaults, read relative to the working directory', () => {
    const name = file(
      'good.json',
      '\uFEFF{ "openai:gpt-4.1": { "input": 1, "cachedInput": 0.25, "output": 4 },\n' +
        '  "openai-compatible:llama3.1": { "input": 0, "output": 0 } }',
    );
    const prices = loadConfig({ PGS_MODEL_PRICES: name }, dir).modelPrices;
    expect(prices['openai:gpt-4.1']).toEqual({
      input: 1,
      cachedInput: 0.25,
      cacheWrite: null,
      output: 4,
    });
    expect(prices['openai-compatible:llama3.1']).toMatchObject({ input: 0, output: 0 });
    expect(prices['anthropic:claude-sonnet-4-5']).toBe(
      DEFAULT_PRICES['anthropic:claude-sonnet-4-5'],
    );
    expect(loadConfig({ PGS_MODEL_PRICES: path.join(dir, name) }, CWD).modelPrices).toEqual(prices);
  });

  it('a missing or unreadable file names the path and why', () => {
    expect(failure({ PGS_MODEL_PRICES: 'absent.json' })).toBe(
      'PGS_MODEL_PRICES=absent.json cannot be read: no such file',
    );
    mkdirSync(path.join(dir, 'a-dir'));
    expect(failure({ PGS_MODEL_PRICES: 'a-dir' })).toBe(
      'PGS_MODEL_PRICES=a-dir cannot be read: a directory',
    );
  });

  it('a bad file is one line naming the key and field, never the contents', () => {
    const name = file(
      'bad.json',
      JSON.stringify({
        'openai:gpt-4.1': { input: 2, output: 8 },
        'anthropic:claude-sonnet-4-5': { input: 3, output: 'sk-ant-secret-value' },
      }),
    );
    const message = failure({ PGS_MODEL_PRICES: name });
    expect(message).toBe(
      'PGS_MODEL_PRICES=bad.json: "anthropic:claude-sonnet-4-5".output must be a non-negative number',
    );
    expect(failure({ PGS_MODEL_PRICES: file('list.json', '[1, 2]') })).toMatch(
      /^PGS_MODEL_PRICES=list\.json: expected a JSON object .* got an array$/,
    );
  });

  it('a file that is not JSON says where it broke, not what it holds', () => {
    expect(
      failure({ PGS_MODEL_PRICES: file('broken.json', '{\n  "openai:gpt-4.1": {"input" 2}\n}') }),
    ).toBe('PGS_MODEL_PRICES=broken.json is not valid JSON at line 2 column 30');
    const secret = failure({ PGS_MODEL_PRICES: file('secret.env', 'OPENAI_API_KEY=sk-hunter2') });
    expect(secret).toMatch(/^PGS_MODEL_PRICES=secret\.env is not valid JSON/);
    expect(secret).not.toMatch(/hunter2|OPENAI_API_KEY/);
    expect(failure({ PGS_MODEL_PRICES: file('empty.json', '') })).toBe(
      'PGS_MODEL_PRICES=empty.json is not valid JSON',
    );
  });
});

// Written before the spawned servers start, so a case can name it.
const BAD_PRICES = path.join(os.tmpdir(), `pgs-config-test-prices-${process.pid}.json`);

describe('starting with an invalid value', () => {
  let dataDir: string | undefined;
  beforeAll(() => {
    writeFileSync(BAD_PRICES, '{"openai:gpt-4.1": {"input": 2, "output": "sk-secret-value"}}');
  });
  afterAll(async () => {
    rmSync(BAD_PRICES, { force: true });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT', /65535/],
    [{ PGS_MODELS: 'anthropic:claude-sonnet-4-5' }, 'ANTHROPIC_API_KEY', /missing/],
    [{ PGS_MODELS: 'mistral:large' }, 'PGS_MODELS', /unknown provider/],
    [
      { PGS_MODEL_PRICES: '/nonexistent/prices.json' },
      'PGS_MODEL_PRICES',
      /\/nonexistent\/prices\.json cannot be read: no such file$/,
    ],
    [
      { PGS_MODEL_PRICES: BAD_PRICES },
      'PGS_MODEL_PRICES',
      /: "openai:gpt-4\.1"\.output must be a non-negative number$/,
    ],
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
      expect(stderr).not.toMatch(/sk-secret-value/);
      // A configuration mistake is a message, not a stack trace.
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stdout).not.toMatch(/listening/);
    },
    30_000,
  );
});
