import type { ApiKey, Role } from '@reelsmith/contracts';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { Database, UserRow } from '../db/schema.js';
import { apiKeyPrefix, createApiKeyCipher, generateApiKey, hashApiKey } from './api-keys.js';
import { signSessionToken } from './session-tokens.js';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const DEFAULT_API_KEY_NAME = 'Default key';
/** last_used_at is a hint, not an audit log: skip the write when it changed this recently. */
const API_KEY_TOUCH_INTERVAL_MS = 60_000;

type Db = Kysely<Database> | Transaction<Database>;

/** NFC first, so an address typed with combining marks and its precomposed twin are one account. */
export const normalizeEmail = (email: string): string => email.normalize('NFC').trim().toLowerCase();

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
    private readonly config: Pick<Config, 'jwtSecret' | 'adminEmails'>,
  ) {
    this.cipher = createApiKeyCipher(config.jwtSecret);
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

  async insertSession(userId: string, userAgent: string | undefined, db: Db = this.db): Promise<{ id: string; expiresAt: Date }> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
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
    let query = db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
    if (keepSessionId) query = query.where('id', '!=', keepSessionId);
    await query.execute();
  }

  /** The session and its user, when the session is neither revoked nor expired. */
  async findActiveSession(sessionId: string, userId: string): Promise<UserRow | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .where('sessions.id', '=', sessionId)
      .where('sessions.user_id', '=', userId)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', new Date().toISOString())
      .executeTakeFirst();
    return row;
  }

  async createApiKey(userId: string, name: string = DEFAULT_API_KEY_NAME, db: Db = this.db): Promise<ApiKey> {
    const key = generateApiKey();
    const row = {
      id: randomUUID(),
      user_id: userId,
      key_hash: hashApiKey(key),
      key_prefix: apiKeyPrefix(key),
      key_encrypted: this.cipher.encrypt(key),
      name,
      created_at: new Date().toISOString(),
      last_used_at: null,
    };
    await db.insertInto('api_keys').values(row).execute();
    return { id: row.id, key, name, created_at: row.created_at };
  }

  /**
   * The user's keys, oldest first. Keys sealed under a previous JWT_SECRET cannot be read back and
   * are left out; when none is readable, a fresh key is issued so the client always gets one.
   */
  async listApiKeys(userId: string): Promise<ApiKey[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    const keys: ApiKey[] = [];
    for (const row of rows) {
      const key = this.cipher.decrypt(row.key_encrypted);
      if (key !== null) keys.push({ id: row.id, key, name: row.name, created_at: row.created_at });
    }
    if (keys.length === 0) keys.push(await this.createApiKey(userId));
    return keys;
  }

  async firstApiKey(userId: string): Promise<ApiKey> {
    const [first] = await this.listApiKeys(userId);
    if (!first) throw new Error('listApiKeys returned no key');
    return first;
  }

  async findUserByApiKey(key: string): Promise<{ user: UserRow; apiKeyId: string } | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('users')
      .select(['api_keys.id as api_key_id', 'api_keys.last_used_at as api_key_last_used_at'])
      .where('api_keys.key_hash', '=', hashApiKey(key))
      .executeTakeFirst();
    if (!row) return undefined;
    const { api_key_id: apiKeyId, api_key_last_used_at: lastUsedAt, ...user } = row;
    const now = Date.now();
    if (!lastUsedAt || now - Date.parse(lastUsedAt) > API_KEY_TOUCH_INTERVAL_MS) {
      await this.db.updateTable('api_keys').set({ last_used_at: new Date(now).toISOString() }).where('id', '=', apiKeyId).execute();
    }
    return { user, apiKeyId };
  }
}
