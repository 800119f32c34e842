import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolderForTest } from './testing/temp-folder.js';
import { configVariablesMarkdown } from './config-docs.js';
import { CONFIG_VARIABLE_NAMES } from './config-schema.js';
import { CONFIG_VARIABLES, ConfigError, loadConfig, parseEnv } from './config.js';

const tempDir = () => tempFolderForTest('reelsmith-config-');

describe('parseEnv', () => {
  it('applies the documented defaults', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(8080);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.GOOGLE_JWKS_URL).toBe('https://www.googleapis.com/oauth2/v3/certs');
    expect(env.GOOGLE_ISSUERS).toEqual(['accounts.google.com', 'https://accounts.google.com']);
    expect(env.RATE_LIMIT_AUTH_MAX).toBe(10);
    expect(env.TRUST_PROXY).toBe(false);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x'],
    ['JWT_SECRET', 'short'],
    ['GOOGLE_JWKS_URL', 'not a url'],
    ['RATE_LIMIT_AUTH_MAX', '0'],
    ['QUEUE_BACKEND', 'kafka'],
    ['REDIS_URL', 'http://cache:6379'],
    ['QUEUE_PREFIX', 'has spaces'],
  ])('names %s when it is %j', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`^Invalid environment variable:\\n  ${name}: `));
  });

  it('never echoes a bad secret back', () => {
    expect(() => parseEnv({ JWT_SECRET: 'hunter2' })).toThrow(/JWT_SECRET: must be at least 32 characters$/);
  });

  it('needs REDIS_URL for the BullMQ queue, and never echoes it (it may hold a password)', () => {
    expect(() => parseEnv({ QUEUE_BACKEND: 'bullmq' })).toThrow(/REDIS_URL: is required when QUEUE_BACKEND is bullmq$/);
    expect(() => parseEnv({ REDIS_URL: 'http://:hunter2@cache' })).toThrow(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL$/);
  });

  it.each([
    ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET'],
    ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
    ['YOUTUBE_CLIENT_ID', 'YOUTUBE_CLIENT_SECRET'],
    ['TIKTOK_CLIENT_KEY', 'TIKTOK_CLIENT_SECRET'],
    ['INSTAGRAM_APP_ID', 'INSTAGRAM_APP_SECRET'],
  ] as const)('needs %s and %s together, and names the secret', (id, secret) => {
    const message = `^Invalid environment variable:\\n  ${secret}: ${id} and ${secret} must be set together$`;
    expect(() => parseEnv({ [id]: 'the-id' })).toThrow(new RegExp(message));
    expect(() => parseEnv({ [secret]: 'hunter2' })).toThrow(new RegExp(message));
    expect(parseEnv({ [id]: 'the-id', [secret]: 'hunter2' })[secret]).toBe('hunter2');
  });

  it('treats blank values as unset and lower-cases admin e-mails', () => {
    const env = parseEnv({ PORT: '', ADMIN_EMAILS: ' Boss@Example.com , ,ops@example.com' });
    expect(env.PORT).toBe(8080);
    expect(env.ADMIN_EMAILS).toEqual(['boss@example.com', 'ops@example.com']);
  });

  const BOOLEAN_VARIABLES = [
    'WEBHOOK_ALLOW_PRIVATE',
    'SOURCE_ALLOW_PRIVATE',
    'EMBED_DEMO',
    'GALLERY_EXAMPLES',
    'S3_FORCE_PATH_STYLE',
    'S3_PROXY',
    'PAYMENTS_TEST_CHECKOUT',
  ] as const;
  it.each(BOOLEAN_VARIABLES)('reads %s in the usual spellings, any case', (name) => {
    for (const value of ['true', '1', 'yes', 'on', 'TRUE', ' Yes ', 'On']) expect(parseEnv({ [name]: value })[name], value).toBe(true);
    for (const value of ['false', '0', 'no', 'off', 'FALSE', ' No ', 'Off']) expect(parseEnv({ [name]: value })[name], value).toBe(false);
    expect(() => parseEnv({ [name]: 'maybe' })).toThrow(
      new RegExp(`${name}: must be true or false \\(1/0, yes/no and on/off are accepted too\\) \\(got "maybe"\\)$`),
    );
  });

  it('starts with SOURCE_ALLOW_PRIVATE=1, the spelling the issue reported', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), SOURCE_ALLOW_PRIVATE: '1' }).sourceAllowPrivate).toBe(true);
    expect(loadConfig({ DATA_DIR: tempDir(), GALLERY_EXAMPLES: 'no' }).galleryExamples).toBe(false);
  });

  it.each([
    ['true', true],
    ['yes', true],
    ['off', false],
    ['2', 2],
    ['10.0.0.1, 10.0.0.2', ['10.0.0.1', '10.0.0.2']],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });
});

describe('loadConfig', () => {
  it('creates DATA_DIR and a private secrets.json once, then reuses it', () => {
    const dataDir = join(tempDir(), 'nested', 'data');
    const first = loadConfig({ DATA_DIR: dataDir });
    const secretsFile = join(dataDir, 'secrets.json');
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(first.jwtSecretSource).toBe('secrets-file');
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(JSON.parse(readFileSync(secretsFile, 'utf8'))).toEqual({ jwtSecret: first.jwtSecret });
  });

  it('uses SQLite under DATA_DIR unless DATABASE_URL is set', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).database).toEqual({ dialect: 'sqlite', file: join(dataDir, 'reelsmith.db') });
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({
      dialect: 'postgres',
      url: 'postgres://u@h/db',
    });
  });

  it('runs jobs in-process unless QUEUE_BACKEND is bullmq', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).queue).toEqual({ backend: 'embedded' });
    expect(loadConfig({ DATA_DIR: dataDir, QUEUE_BACKEND: 'bullmq', REDIS_URL: 'redis://cache:6379/2' }).queue).toEqual({
      backend: 'bullmq',
      redisUrl: 'redis://cache:6379/2',
      prefix: 'reelsmith',
    });
  });

  it('prefers JWT_SECRET over the secrets file and writes none', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });
    expect(config.jwtSecretSource).toBe('env');
    expect(() => statSync(join(dataDir, 'secrets.json'))).toThrow();
  });
});

it('documents every variable the schema reads', () => {
  expect(CONFIG_VARIABLES.map((variable) => variable.name).sort()).toEqual([...CONFIG_VARIABLE_NAMES].sort());
  for (const variable of CONFIG_VARIABLES) expect(variable.description.length).toBeGreaterThan(10);
});

it('renders the variables as a Markdown table', () => {
  const table = configVariablesMarkdown().split('\n');
  expect(table[0]).toBe('| Variable | Default | Description |');
  expect(table).toHaveLength(CONFIG_VARIABLES.length + 2);
  expect(table).toContain('| `PORT` | 8080 | TCP port the HTTP server listens on. |');
});
