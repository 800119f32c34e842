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
  /** Reseals each value sealed under the legacy key; `write` swaps one only while it is still the value read. */
  const resealAll = async (
    rows: { id: string; sealed: string }[],
    current: ApiKeyCipher,
    legacy: ApiKeyCipher,
    write: (id: string, was: string, resealed: string) => Promise<unknown>,
  ): Promise<number> => {
    let count = 0;
    for (const row of rows) {
      if (!row.sealed || current.decrypt(row.sealed) !== null) continue;
      const plain = legacy.decrypt(row.sealed);
      if (plain === null) continue;
      await write(row.id, row.sealed, current.encrypt(plain));
      count += 1;
    }
    return count;
  };

  const apiKeys = await resealAll(
    await db.selectFrom('api_keys').select(['id', 'key_encrypted as sealed']).where('key_encrypted', '!=', '').execute(),
    apiKeySecretCipher(secrets.encryptionKey),
    apiKeySecretCipher(secrets.jwtSecret),
    (id, was, resealed) =>
      db.updateTable('api_keys').set({ key_encrypted: resealed }).where('id', '=', id).where('key_encrypted', '=', was).execute(),
  );
  const webhooks = await resealAll(
    await db.selectFrom('webhooks').select(['id', 'secret_encrypted as sealed']).execute(),
    webhookSecretCipher(secrets.encryptionKey),
    webhookSecretCipher(secrets.jwtSecret),
    (id, was, resealed) =>
      db.updateTable('webhooks').set({ secret_encrypted: resealed }).where('id', '=', id).where('secret_encrypted', '=', was).execute(),
  );
  return { apiKeys, webhooks };
}
