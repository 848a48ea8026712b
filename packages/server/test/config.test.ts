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
    expect(Object.isFrozen(config)).toBe(true);
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

describe('starting with an invalid value', () => {
  let dataDir: string | undefined;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('PORT=abc: exits with code 1 and a stderr line naming PORT', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-config-test-'));
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (!/^(PGS_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$)/.test(name)) env[name] = value;
    }
    const child = spawn(NODE, ['packages/server/src/main.ts'], {
      cwd: ROOT,
      env: { ...env, PORT: 'abc', PGS_DATA_DIR: dataDir, PGS_LOG_LEVEL: 'warn' },
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
    const lines = stderr.split('\n').filter((line) => line.includes('PORT'));
    expect(lines.length, stderr).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/65535/);
    // A configuration mistake is a message, not a stack trace.
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).not.toMatch(/listening/);
  }, 30_000);
});
