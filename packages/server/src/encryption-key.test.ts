import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultEncryptionKeyFile, EncryptionKeyError, encryptionKeyNotice, loadEncryptionKey } from './encryption-key.js';

const tempDataDir = () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'reelsmith-key-')), 'data');
  mkdirSync(dataDir);
  return dataDir;
};

describe('loadEncryptionKey', () => {
  it('generates the key once in development, beside DATA_DIR and never in it, with a start-up warning', () => {
    const dataDir = tempDataDir();
    const first = loadEncryptionKey({ key: undefined, file: undefined, dataDir, production: false });
    expect(first).toMatchObject({ source: 'generated-file', file: defaultEncryptionKeyFile(dataDir), created: true });
    expect(first.file).toBe(`${dataDir}.encryption-key`);
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(first.key.length).toBeGreaterThanOrEqual(32);
    expect(encryptionKeyNotice(first)).toMatchObject({ level: 'warn', message: expect.stringContaining(first.file!) });
    expect(encryptionKeyNotice(first)?.message).not.toContain(first.key);

    const again = loadEncryptionKey({ key: undefined, file: undefined, dataDir, production: false });
    expect(again).toMatchObject({ key: first.key, created: false });
    expect(encryptionKeyNotice(again)?.level).toBe('info');
  });

  it('requires a key in production and never generates one there', () => {
    const dataDir = tempDataDir();
    expect(() => loadEncryptionKey({ key: undefined, file: undefined, dataDir, production: true })).toThrow(EncryptionKeyError);
    expect(() => loadEncryptionKey({ key: undefined, file: undefined, dataDir, production: true })).toThrow(
      /ENCRYPTION_KEY or ENCRYPTION_KEY_FILE/,
    );
    const missing = join(dataDir, '..', 'missing.key');
    expect(() => loadEncryptionKey({ key: undefined, file: missing, dataDir, production: true })).toThrow(/does not exist/);
  });

  it('reads ENCRYPTION_KEY_FILE, refusing one inside DATA_DIR, a short key, or both variables at once', () => {
    const dataDir = tempDataDir();
    const outside = join(dataDir, '..', 'operator.key');
    writeFileSync(outside, `${'k'.repeat(40)}\n`);
    expect(loadEncryptionKey({ key: undefined, file: outside, dataDir, production: true })).toMatchObject({
      key: 'k'.repeat(40),
      source: 'file',
      created: false,
    });

    const inside = join(dataDir, 'keys', 'operator.key');
    mkdirSync(join(dataDir, 'keys'));
    writeFileSync(inside, 'k'.repeat(40));
    expect(() => loadEncryptionKey({ key: undefined, file: inside, dataDir, production: false })).toThrow(/inside DATA_DIR/);

    const short = join(dataDir, '..', 'short.key');
    writeFileSync(short, 'too-short');
    expect(() => loadEncryptionKey({ key: undefined, file: short, dataDir, production: false })).toThrow(/at least 32 characters/);
    expect(() => loadEncryptionKey({ key: 'e'.repeat(40), file: outside, dataDir, production: false })).toThrow(/not both/);
    expect(readFileSync(outside, 'utf8').trim()).toBe('k'.repeat(40));
  });

  it('takes ENCRYPTION_KEY as it is and writes nothing', () => {
    const dataDir = tempDataDir();
    const settings = loadEncryptionKey({ key: 'e'.repeat(40), file: undefined, dataDir, production: true });
    expect(settings).toEqual({ key: 'e'.repeat(40), source: 'env', file: null, created: false });
    expect(() => statSync(defaultEncryptionKeyFile(dataDir))).toThrow();
    expect(encryptionKeyNotice(settings)).toBeNull();
  });
});
