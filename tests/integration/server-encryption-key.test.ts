import {
  apiKeySecretCipher,
  buildApp,
  createTestDatabase,
  TEST_DIALECTS,
  webhookSecretCipher,
  type App,
  type TestDatabase,
} from '@reelsmith/server/testing';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const quiet = { voices: { autoGenerateOfflineSamples: false } };
const PASSWORD = 'correct-horse-battery';

/** Every file under `dir`, as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, text: readFileSync(path).toString('latin1') };
    });
}

describe.each(TEST_DIALECTS)('the encryption key of stored secrets lives outside DATA_DIR, on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  }, 120_000);
  afterAll(async () => {
    await database?.cleanup();
  });

  async function accountWithWebhook(app: App): Promise<{ userId: string; apiKey: string; webhookSecret: string }> {
    const email = `keys-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Asha Rao', email, password: PASSWORD },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const { user, token, api_key: apiKey } = registered.json();
    const hook = await app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: { authorization: `Bearer ${token}` },
      payload: { url: 'http://127.0.0.1:9/hook', events: ['video.completed'] },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    return { userId: user.id, apiKey: apiKey.key, webhookSecret: hook.json().secret };
  }

  const storedFor = async (app: App, userId: string) => ({
    apiKey: (
      await app.db
        .selectFrom('api_keys')
        .select('key_encrypted')
        .where('user_id', '=', userId)
        .where('key_encrypted', '!=', '')
        .executeTakeFirstOrThrow()
    ).key_encrypted,
    webhook: (await app.db.selectFrom('webhooks').select('secret_encrypted').where('user_id', '=', userId).executeTakeFirstOrThrow())
      .secret_encrypted,
  });

  it('leaves a copy of DATA_DIR (database, secrets.json) unable to decrypt any studio key or webhook secret, and says where the generated key is', async () => {
    const lines: string[] = [];
    // No JWT_SECRET and no encryption key: the development defaults, as `npm start` on a fresh machine.
    const app = await buildApp(database.config({ JWT_SECRET: '', ENCRYPTION_KEY: '', LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE: 'true' }), {
      ...quiet,
      logStream: { write: (line: string) => void lines.push(line) },
    });
    try {
      const account = await accountWithWebhook(app);
      const { jwtSecret } = JSON.parse(readFileSync(join(database.dataDir, 'secrets.json'), 'utf8')) as { jwtSecret: string };
      const stored = await storedFor(app, account.userId);
      // What a thief holding DATA_DIR has: the database rows and secrets.json.
      expect(webhookSecretCipher(jwtSecret).decrypt(stored.webhook)).toBeNull();
      expect(apiKeySecretCipher(jwtSecret).decrypt(stored.apiKey)).toBeNull();

      const keyFile = `${database.dataDir}.encryption-key`;
      const key = readFileSync(keyFile, 'utf8').trim();
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(webhookSecretCipher(key).decrypt(stored.webhook)).toBe(account.webhookSecret);
      expect(apiKeySecretCipher(key).decrypt(stored.apiKey)).toBe(account.apiKey);
      for (const file of filesUnder(database.dataDir)) expect(file.text.includes(key), file.path).toBe(false);
      expect(
        lines.some(
          (line) => line.includes('generated one in') && line.includes(keyFile) && line.includes('back it up apart from DATA_DIR'),
        ),
      ).toBe(true);
      expect(lines.join('\n')).not.toContain(key);
    } finally {
      await app.close();
    }
  });

  it('moves keys and webhook secrets sealed under JWT_SECRET by an earlier version to the encryption key at start, losing none', async () => {
    const config = database.config({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    const first = await buildApp(config, quiet);
    let account: Awaited<ReturnType<typeof accountWithWebhook>>;
    try {
      account = await accountWithWebhook(first);
      // As the previous version stored them: sealed under JWT_SECRET.
      await first.db
        .updateTable('api_keys')
        .set({ key_encrypted: apiKeySecretCipher(config.jwtSecret).encrypt(account.apiKey) })
        .where('user_id', '=', account.userId)
        .where('key_encrypted', '!=', '')
        .execute();
      await first.db
        .updateTable('webhooks')
        .set({ secret_encrypted: webhookSecretCipher(config.jwtSecret).encrypt(account.webhookSecret) })
        .where('user_id', '=', account.userId)
        .execute();
    } finally {
      await first.close();
    }

    const upgraded = await buildApp(config, quiet);
    try {
      const stored = await storedFor(upgraded, account.userId);
      expect(apiKeySecretCipher(config.encryption.key).decrypt(stored.apiKey)).toBe(account.apiKey);
      expect(webhookSecretCipher(config.encryption.key).decrypt(stored.webhook)).toBe(account.webhookSecret);
      expect(apiKeySecretCipher(config.jwtSecret).decrypt(stored.apiKey)).toBeNull();
      expect(webhookSecretCipher(config.jwtSecret).decrypt(stored.webhook)).toBeNull();
      // The key still works, and a second start changes nothing.
      expect((await upgraded.inject({ method: 'GET', url: '/api/videos', headers: { 'x-api-key': account.apiKey } })).statusCode).toBe(200);
    } finally {
      await upgraded.close();
    }
    const again = await buildApp(config, quiet);
    try {
      const stored = await storedFor(again, account.userId);
      expect(apiKeySecretCipher(config.encryption.key).decrypt(stored.apiKey)).toBe(account.apiKey);
    } finally {
      await again.close();
    }
  });
});
