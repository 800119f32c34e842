import type { Role } from '@reelsmith/contracts';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { normalizeEmail } from '../auth/auth-service.js';
import { sessionRevocationChannel } from '../auth/session-revocation-plugin.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';

export const ADMIN_COMMAND_USAGE = 'Usage: npm run admin -- grant <email>   |   npm run admin -- revoke <email>';

export type AdminCommand = { action: 'grant' | 'revoke'; email: string };

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

/**
 * The command line after `npm run admin --`; `help` for --help (the usage, nothing wrong); a message
 * saying what is wrong otherwise (no action at all is only the usage, not an "unknown action").
 */
export function parseAdminCommand(args: string[]): AdminCommand | { help: string } | { error: string } {
  const [action, email, ...rest] = args;
  if (action !== undefined && HELP_FLAGS.has(action)) return { help: ADMIN_COMMAND_USAGE };
  if (action === undefined) return { error: ADMIN_COMMAND_USAGE };
  if (action !== 'grant' && action !== 'revoke') return { error: `Unknown action "${action}".\n${ADMIN_COMMAND_USAGE}` };
  if (!email || rest.length > 0 || !email.includes('@')) return { error: `Give exactly one e-mail address.\n${ADMIN_COMMAND_USAGE}` };
  return { action, email: normalizeEmail(email) };
}

/**
 * Sets the role in the database directly, for the operator (no sign-in needed). The role is marked
 * as set by hand, so ADMIN_EMAILS neither re-grants a revoked admin nor removes a granted one.
 * Returns the user's id, or null when no account has the address.
 */
export async function setRoleByOperator(
  db: Kysely<Database>,
  command: AdminCommand,
  now = new Date(),
): Promise<{ userId: string; role: Role } | null> {
  const role: Role = command.action === 'grant' ? 'admin' : 'user';
  const user = await db.selectFrom('users').select('id').where('email', '=', command.email).executeTakeFirst();
  if (!user) return null;
  await db
    .updateTable('users')
    .set({ role, role_set_by_admin_at: now.toISOString(), updated_at: now.toISOString() })
    .where('id', '=', user.id)
    .execute();
  return { userId: user.id, role };
}

/** Scale mode: tell the API processes to close the user's sockets, which reconnect under the new role. */
export async function announceRoleChange(config: Config, userId: string): Promise<void> {
  if (config.queue.backend !== 'bullmq') return;
  const redis = new Redis(config.queue.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    await redis.publish(
      sessionRevocationChannel(config.queue.prefix),
      JSON.stringify({ origin: 'operator', revocation: { userId, exceptSessionId: null, includeApiKeys: true } }),
    );
  } finally {
    redis.disconnect();
  }
}
