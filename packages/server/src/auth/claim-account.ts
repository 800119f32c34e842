import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import type { AccountMail } from './account-mail.js';

/** Said to the owner in the Google sign-in answer and by e-mail. */
export const CLAIMED_ACCOUNT_MESSAGE =
  'Signed in with Google. Someone had signed up with your address and a password, without confirming it: that password, its sessions, API keys, embed sessions and webhooks no longer work. Set a password in Settings if you want one.';

/**
 * The verified owner of an address (Google vouches for it) takes over an account someone opened with
 * it and a password but never confirmed. In one transaction the account's password ends, with every
 * session, API key (and the embed sessions they minted), webhook, platform connection and pending e-mail link, and the
 * Google identity and verification are recorded; then every live socket of the account closes.
 * Returns the up-to-date row.
 */
export async function claimUnverifiedAccount(app: FastifyInstance, user: UserRow, googleSub: string): Promise<UserRow> {
  const now = new Date().toISOString();
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: null, google_sub: googleSub, email_verified_at: now, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await app.authService.revokeAllApiKeys(user.id, trx);
    await app.authService.revokeOtherSessions(user.id, null, trx);
    await endWebhooks(trx, user.id, now);
    await endPlatformConnections(trx, user.id);
    // A pending e-mail change or reset link must not outlive the claim either.
    await trx.updateTable('email_tokens').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute();
  });
  await app.sessionRevocations.publish({ userId: user.id, exceptSessionId: null, includeApiKeys: true });
  app.log.warn(
    { userId: user.id },
    'unconfirmed password account claimed by its Google-verified owner: password, sessions, API keys and webhooks ended',
  );
  return { ...user, password_hash: null, google_sub: googleSub, email_verified_at: now, updated_at: now };
}

export function claimedAccountMail(to: string, publicUrl: string): AccountMail {
  const link = `${publicUrl}/settings`;
  return {
    to,
    subject: 'Your Reelsmith account: an unconfirmed sign-up was closed',
    text: `You signed in to Reelsmith with Google as ${to}.\n\nBefore that, someone had signed up with this address and a password but never confirmed it. That password no longer works, and every session, API key, embed session and webhook made with it has ended. Check your videos and settings here:\n${link}\n\nIf you made that sign-up yourself, set a new password in Settings.`,
    link,
  };
}

/** Soft-deletes every webhook of the user (kept for their delivery log; pending deliveries stop). */
export async function endWebhooks(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
  now: string = new Date().toISOString(),
): Promise<void> {
  await db.updateTable('webhooks').set({ deleted_at: now }).where('user_id', '=', userId).where('deleted_at', 'is', null).execute();
}

/**
 * Ends the account's YouTube, TikTok and Instagram connections with its other credentials (a password
 * reset, a claimed account): the sealed tokens and any consent under way are deleted, so whoever held
 * the account can no longer post with them; the owner connects again from Settings.
 */
export async function endPlatformConnections(db: Kysely<Database> | Transaction<Database>, userId: string): Promise<void> {
  await db.deleteFrom('platform_connections').where('user_id', '=', userId).execute();
  await db.deleteFrom('platform_oauth_states').where('user_id', '=', userId).execute();
}
