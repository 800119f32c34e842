import {
  ADMIN_USER_MESSAGES,
  EMBED_SESSION_MINUTES,
  type ApiKey,
  type BrandKit,
  type ApiKeySummary,
  type Role,
} from '@reelsmith/contracts';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.js';
import { preparedQuery } from '../db/prepared-query.js';
import type { ApiKeyRow, Database, SessionScope, UserRow } from '../db/schema.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-keys.js';
import { apiKeySecretCipher } from './stored-secrets.js';
import { signSessionToken } from './session-tokens.js';
import { forbidden } from '../errors.js';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const DEFAULT_API_KEY_NAME = 'Default key';
export const EMBED_SESSION_LIFETIME_MS = EMBED_SESSION_MINUTES * 60 * 1000;
/** last_used_at is a hint, not an audit log: skip the write when it changed this recently. */
const API_KEY_TOUCH_INTERVAL_MS = 60_000;

type Db = Kysely<Database> | Transaction<Database>;

/** NFC first, so an address typed with combining marks and its precomposed twin are one account. */
export const normalizeEmail = (email: string): string => email.normalize('NFC').trim().toLowerCase();

/** The account-state columns of a new user, signed in at `signedInAt`. */
export function newAccountFields(signedInAt: string | null) {
  return {
    status: 'active' as const,
    suspended_at: null,
    suspension_reason: null,
    last_sign_in_at: signedInAt,
    usage_reset_at: null,
    role_set_by_admin_at: null,
  };
}

/** A live session's user, with the session's scope, expiry and (embed sessions) the key that minted it. */
export type ActiveSessionRow = UserRow & { session_scope: SessionScope; session_expires_at: string; session_api_key_id: string | null };

export interface IssuedSession {
  sessionId: string;
  token: string;
  expiresAt: string;
}

/** Account, session and API-key operations shared by the auth routes and the authentication decorators. */
export class AuthService {
  private readonly cipher;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Pick<Config, 'jwtSecret' | 'adminEmails' | 'encryption'>,
  ) {
    this.cipher = apiKeySecretCipher(config.encryption.key);
  }

  /**
   * The role ADMIN_EMAILS gives: admin only for a listed address that its owner has proven (an
   * e-mailed link or Google). An unverified listed address is an ordinary user, so nobody can take
   * the role by signing up with, or changing their profile to, an address they do not own.
   */
  roleFor(email: string, emailVerified: boolean): Role {
    return emailVerified && this.config.adminEmails.includes(normalizeEmail(email)) ? 'admin' : 'user';
  }

  findUserByEmail(email: string, db: Db = this.db): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
  }

  findUserById(id: string, db: Db = this.db): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Every sign-in (password, Google) passes here: a suspended account is refused with a clear 403;
   * otherwise the role is synced and the sign-in time recorded. Returns the up-to-date row.
   */
  async recordSignIn(user: UserRow, db: Db = this.db): Promise<UserRow> {
    if (user.status === 'suspended') throw forbidden(ADMIN_USER_MESSAGES.accountSuspended);
    const synced = await this.syncRole(user, db);
    const signedInAt = new Date().toISOString();
    await db.updateTable('users').set({ last_sign_in_at: signedInAt }).where('id', '=', user.id).execute();
    return { ...synced, last_sign_in_at: signedInAt };
  }

  /** Brings the stored role in line with ADMIN_EMAILS (verified addresses only); returns the up-to-date row. */
  async syncRole(user: UserRow, db: Db = this.db): Promise<UserRow> {
    // A role set by hand (npm run admin, User Management) outranks the list.
    if (user.role_set_by_admin_at) return user;
    const role = this.roleFor(user.email, user.email_verified_at !== null);
    if (role === user.role) return user;
    const updatedAt = new Date().toISOString();
    await db.updateTable('users').set({ role, updated_at: updatedAt }).where('id', '=', user.id).execute();
    return { ...user, role, updated_at: updatedAt };
  }

  async insertSession(
    userId: string,
    userAgent: string | undefined,
    db: Db = this.db,
    embed?: { apiKeyId: string; brand?: string | null },
  ): Promise<{ id: string; expiresAt: Date }> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (embed ? EMBED_SESSION_LIFETIME_MS : SESSION_LIFETIME_MS));
    const id = randomUUID();
    await db
      .insertInto('sessions')
      .values({
        id,
        user_id: userId,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        revoked_at: null,
        user_agent: userAgent?.slice(0, 500) ?? null,
        scope: embed ? 'embed' : 'full',
        api_key_id: embed?.apiKeyId ?? null,
        brand: embed?.brand ?? null,
      })
      .execute();
    return { id, expiresAt };
  }

  async tokenFor(session: { id: string; expiresAt: Date }, userId: string): Promise<IssuedSession> {
    const token = await signSessionToken({ sessionId: session.id, userId }, session.expiresAt, this.config.jwtSecret);
    return { sessionId: session.id, token, expiresAt: session.expiresAt.toISOString() };
  }

  async createSession(userId: string, userAgent: string | undefined, db: Db = this.db): Promise<IssuedSession> {
    return this.tokenFor(await this.insertSession(userId, userAgent, db), userId);
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every session of the user except `keepSessionId` (all of them when null). */
  async revokeOtherSessions(userId: string, keepSessionId: string | null, db: Db = this.db): Promise<void> {
    let query = db
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keepSessionId) query = query.where('id', '!=', keepSessionId);
    await query.execute();
  }

  /**
   * A session of the studio embedded on a partner page (POST /api/embed/sessions): 15 minutes,
   * scoped to the routes marked `embed` in the contracts, ended when the key that minted it is revoked.
   */
  async createEmbedSession(userId: string, apiKeyId: string, userAgent: string | undefined, brand?: BrandKit): Promise<IssuedSession> {
    return this.tokenFor(
      await this.insertSession(userId, userAgent, this.db, { apiKeyId, brand: brand ? JSON.stringify(brand) : null }),
      userId,
    );
  }

  /** The session's user and scope, when the session is neither revoked nor expired. */
  // Prepared once: this lookup runs on every authenticated request (see db/prepared-query.ts).
  private activeSessionQuery: ((values: { sessionId: string; userId: string; now: string }) => Promise<ActiveSessionRow[]>) | null = null;

  async findActiveSession(sessionId: string, userId: string): Promise<ActiveSessionRow | undefined> {
    this.activeSessionQuery ??= preparedQuery(this.db, ['sessionId', 'userId', 'now'] as const, (slot) =>
      this.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .selectAll('users')
        .select([
          'sessions.scope as session_scope',
          'sessions.expires_at as session_expires_at',
          'sessions.api_key_id as session_api_key_id',
        ])
        .where('sessions.id', '=', slot.sessionId)
        .where('sessions.user_id', '=', slot.userId)
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', slot.now)
        .where('users.status', '=', 'active'),
    );
    const [row] = await this.activeSessionQuery({ sessionId, userId, now: new Date().toISOString() });
    return row;
  }

  /** Whether the account is suspended (only asked when a session was refused, to say why). */
  async isSuspended(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('status').where('id', '=', userId).executeTakeFirst();
    return row?.status === 'suspended';
  }

  /**
   * A new key. The account's studio key (registration, or when the studio finds none) is also sealed
   * so the studio can read it back; a developer key (`hashedOnly`, POST /auth/api-keys) exists only as
   * its SHA-256 hash, and its secret is shown once.
   */
  async createApiKey(userId: string, name: string = DEFAULT_API_KEY_NAME, db: Db = this.db, { hashedOnly = false } = {}): Promise<ApiKey> {
    const key = generateApiKey();
    const row = {
      id: randomUUID(),
      user_id: userId,
      key_hash: hashApiKey(key),
      key_prefix: apiKeyPrefix(key),
      key_encrypted: hashedOnly ? '' : this.cipher.encrypt(key),
      name,
      created_at: new Date().toISOString(),
      last_used_at: null,
    };
    await db.insertInto('api_keys').values(row).execute();
    return { id: row.id, key, name, created_at: row.created_at };
  }

  private activeKeyRows(userId: string, db: Db = this.db): Promise<ApiKeyRow[]> {
    return db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  /** The oldest active studio key readable under the current JWT_SECRET; a fresh one when there is none. */
  private async studioKey(userId: string, rows: ApiKeyRow[]): Promise<ApiKey> {
    for (const row of rows) {
      const key = row.key_encrypted ? this.cipher.decrypt(row.key_encrypted) : null;
      if (key !== null) return { id: row.id, key, name: row.name, created_at: row.created_at };
    }
    return this.createApiKey(userId);
  }

  /**
   * The user's active keys, the studio key first, then every other key oldest first: name, prefix
   * and last use only. No secret is ever listed, the studio key's included: a secret is shown once,
   * when the key is made (sign-up, Google sign-in, POST /auth/api-keys), so a session that is not
   * the owner's (a pre-registrant's, a stolen one) cannot read a key that outlives it.
   */
  async listApiKeys(userId: string): Promise<ApiKeySummary[]> {
    const rows = await this.activeKeyRows(userId);
    const isStudio = (row: ApiKeyRow) => row.key_encrypted !== '';
    const ordered = [...rows.filter(isStudio), ...rows.filter((row) => !isStudio(row))];
    return ordered.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.key_prefix,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
      ...(isStudio(row) ? { studio: true } : {}),
    }));
  }

  async firstApiKey(userId: string): Promise<ApiKey> {
    return this.studioKey(userId, await this.activeKeyRows(userId));
  }

  /**
   * Revokes one of the user's keys at once (every key check reads revoked_at) and ends the embed
   * sessions it minted. False when the user has no such active key.
   */
  async revokeApiKey(userId: string, keyId: string, db: Db = this.db): Promise<boolean> {
    const now = new Date().toISOString();
    const result = await db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await db.updateTable('sessions').set({ revoked_at: now }).where('api_key_id', '=', keyId).where('revoked_at', 'is', null).execute();
    return true;
  }

  /** Revokes every key of the user (password reset or change, a claimed account) and the embed sessions they minted. */
  async revokeAllApiKeys(userId: string, db: Db = this.db): Promise<string[]> {
    const now = new Date().toISOString();
    const keys = await db.selectFrom('api_keys').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    if (keys.length === 0) return [];
    const ids = keys.map((key) => key.id);
    await db.updateTable('api_keys').set({ revoked_at: now }).where('id', 'in', ids).execute();
    await db.updateTable('sessions').set({ revoked_at: now }).where('api_key_id', 'in', ids).where('revoked_at', 'is', null).execute();
    return ids;
  }

  async findUserByApiKey(key: string): Promise<{ user: UserRow; apiKeyId: string } | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('users')
      .select(['api_keys.id as api_key_id', 'api_keys.last_used_at as api_key_last_used_at'])
      .where('api_keys.key_hash', '=', hashApiKey(key))
      .where('api_keys.revoked_at', 'is', null)
      // A suspended user's keys stop working at once, and work again on reactivation.
      .where('users.status', '=', 'active')
      .executeTakeFirst();
    if (!row) return undefined;
    const { api_key_id: apiKeyId, api_key_last_used_at: lastUsedAt, ...user } = row;
    const now = Date.now();
    if (!lastUsedAt || now - Date.parse(lastUsedAt) > API_KEY_TOUCH_INTERVAL_MS) {
      await this.db
        .updateTable('api_keys')
        .set({ last_used_at: new Date(now).toISOString() })
        .where('id', '=', apiKeyId)
        .execute();
    }
    return { user, apiKeyId };
  }
}
