import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, EmailTokenPurpose } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export const EMAIL_TOKEN_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 48 * 60 * 60 * 1000,
  reset_password: 30 * 60 * 1000,
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new single-use token for `email`; earlier unused tokens of the same purpose stop working. */
export async function issueEmailToken(
  db: Db,
  userId: string,
  purpose: EmailTokenPurpose,
  email: string,
  now = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .updateTable('email_tokens')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('email_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      email,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + EMAIL_TOKEN_LIFETIME_MS[purpose]).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/**
 * Marks the token used and returns its user and address, in one conditional update so two uses
 * racing each other cannot both succeed; undefined when unknown, used, expired or of another purpose.
 */
export async function consumeEmailToken(
  db: Db,
  token: string,
  purpose: EmailTokenPurpose,
  now = new Date(),
): Promise<{ userId: string; email: string } | undefined> {
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: now.toISOString() })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .returning(['user_id', 'email'])
    .executeTakeFirst();
  return row ? { userId: row.user_id, email: row.email } : undefined;
}
