import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { createApiKeyCipher, webhookSecretCipher, type ApiKeyCipher } from './api-keys.js';

/** The cipher of the studio API keys (GET /auth/api-keys never returns them; Google sign-in does). */
export const apiKeySecretCipher = (encryptionKey: string): ApiKeyCipher => createApiKeyCipher(encryptionKey);

/**
 * Seals again, under the encryption key, every stored studio key and webhook secret that an earlier
 * version sealed under JWT_SECRET (which may live in DATA_DIR/secrets.json). Runs at every start of
 * every process; a value already readable under the encryption key is left alone, and one readable
 * under neither (sealed under a JWT_SECRET since replaced) stays as it was.
 */
export async function resealLegacySecrets(
  db: Kysely<Database>,
  secrets: { encryptionKey: string; jwtSecret: string },
): Promise<{ apiKeys: number; webhooks: number }> {
  if (secrets.encryptionKey === secrets.jwtSecret) return { apiKeys: 0, webhooks: 0 };
  const reseal = (current: ApiKeyCipher, legacy: ApiKeyCipher, sealed: string): string | null => {
    if (!sealed || current.decrypt(sealed) !== null) return null;
    const plain = legacy.decrypt(sealed);
    return plain === null ? null : current.encrypt(plain);
  };

  let apiKeys = 0;
  const keyCipher = apiKeySecretCipher(secrets.encryptionKey);
  const legacyKeyCipher = apiKeySecretCipher(secrets.jwtSecret);
  for (const row of await db.selectFrom('api_keys').select(['id', 'key_encrypted']).where('key_encrypted', '!=', '').execute()) {
    const resealed = reseal(keyCipher, legacyKeyCipher, row.key_encrypted);
    if (resealed === null) continue;
    await db
      .updateTable('api_keys')
      .set({ key_encrypted: resealed })
      .where('id', '=', row.id)
      .where('key_encrypted', '=', row.key_encrypted)
      .execute();
    apiKeys += 1;
  }

  let webhooks = 0;
  const hookCipher = webhookSecretCipher(secrets.encryptionKey);
  const legacyHookCipher = webhookSecretCipher(secrets.jwtSecret);
  for (const row of await db.selectFrom('webhooks').select(['id', 'secret_encrypted']).execute()) {
    const resealed = reseal(hookCipher, legacyHookCipher, row.secret_encrypted);
    if (resealed === null) continue;
    await db
      .updateTable('webhooks')
      .set({ secret_encrypted: resealed })
      .where('id', '=', row.id)
      .where('secret_encrypted', '=', row.secret_encrypted)
      .execute();
    webhooks += 1;
  }
  return { apiKeys, webhooks };
}
