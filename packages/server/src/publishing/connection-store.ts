import { PLATFORMS, type Connection, type Platform } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import { createApiKeyCipher, type ApiKeyCipher } from '../auth/api-keys.js';
import type { Database, PlatformConnectionRow } from '../db/schema.js';
import type { ConnectedAccount, OAuthClient, RefreshWindow, TokenSet } from './oauth-clients.js';
import { PlatformError } from './platform-http.js';

/** An access token this close to its expiry is refreshed before use (an upload can take minutes). */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
/** A token is due for refreshing: within the window before expiry, and old enough for the platform to take it. */
export function refreshDue(window: RefreshWindow, issuedAt: string, expiresAt: string | null, now = Date.now()): boolean {
  if (expiresAt === null) return false;
  return Date.parse(expiresAt) - now < window.beforeExpiryMs && now - Date.parse(issuedAt) >= window.minAgeMs;
}

const DEFAULT_WINDOW: RefreshWindow = { beforeExpiryMs: REFRESH_BEFORE_EXPIRY_MS, minAgeMs: 0 };

/** How long a started connection may take on the platform's consent page. */
export const OAUTH_STATE_TTL_MS = 15 * 60_000;

/** The platform tokens are sealed like the studio API keys and webhook secrets, under their own derived key. */
export const platformTokenCipher = (encryptionKey: string): ApiKeyCipher => createApiKeyCipher(`${encryptionKey}:platform-tokens`);

export interface ConnectionTokens {
  accessToken: string;
  refreshToken: string | null;
  accountId: string;
  accountName: string;
}

export class ConnectionStore {
  private readonly cipher: ApiKeyCipher;
  /** One refresh per connection at a time in this process: two uploads starting together share it. */
  private readonly refreshing = new Map<string, Promise<ConnectionTokens>>();

  constructor(
    private readonly db: Kysely<Database>,
    encryptionKey: string,
  ) {
    this.cipher = platformTokenCipher(encryptionKey);
  }

  async list(userId: string, offered: readonly Platform[]): Promise<Connection[]> {
    const rows = await this.db.selectFrom('platform_connections').selectAll().where('user_id', '=', userId).execute();
    return PLATFORMS.filter((platform) => offered.includes(platform)).map((platform) => {
      const row = rows.find((candidate) => candidate.platform === platform);
      return {
        platform,
        connected: Boolean(row),
        account: row ? { id: row.account_id, name: row.account_name } : null,
        connectedAt: row?.connected_at ?? null,
        needsReconnect: row ? row.needs_reconnect === 1 : false,
      };
    });
  }

  /** The scopes each platform granted this creator (as the token answer listed them). */
  async scopes(userId: string): Promise<Partial<Record<Platform, string>>> {
    const rows = await this.db.selectFrom('platform_connections').select(['platform', 'scope']).where('user_id', '=', userId).execute();
    return Object.fromEntries(rows.map((row) => [row.platform, row.scope ?? '']));
  }

  async saveState(state: string, userId: string, platform: Platform, codeVerifier: string | null, browserBinding: string): Promise<void> {
    const now = new Date();
    // Abandoned consents are swept whenever a new one starts.
    await this.db
      .deleteFrom('platform_oauth_states')
      .where('created_at', '<', new Date(now.getTime() - OAUTH_STATE_TTL_MS).toISOString())
      .execute();
    await this.db
      .insertInto('platform_oauth_states')
      .values({
        state,
        user_id: userId,
        platform,
        code_verifier: codeVerifier,
        browser_binding: browserBinding,
        created_at: now.toISOString(),
      })
      .execute();
  }

  /** The state's owner and verifier, once: the row is deleted as it is read, so a replayed callback finds nothing. */
  async takeState(
    state: string,
    platform: Platform,
  ): Promise<{ userId: string; codeVerifier: string | null; browserBinding: string } | null> {
    const row = await this.db.selectFrom('platform_oauth_states').selectAll().where('state', '=', state).executeTakeFirst();
    if (!row) return null;
    const deleted = await this.db.deleteFrom('platform_oauth_states').where('state', '=', state).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return null;
    if (row.platform !== platform || Date.parse(row.created_at) < Date.now() - OAUTH_STATE_TTL_MS) return null;
    return { userId: row.user_id, codeVerifier: row.code_verifier, browserBinding: row.browser_binding };
  }

  async save(userId: string, platform: Platform, tokens: TokenSet, account: ConnectedAccount): Promise<void> {
    const now = new Date().toISOString();
    const values = {
      account_id: account.id,
      account_name: account.name,
      access_token_sealed: this.cipher.encrypt(tokens.accessToken),
      refresh_token_sealed: tokens.refreshToken ? this.cipher.encrypt(tokens.refreshToken) : null,
      expires_at: tokens.expiresAt,
      scope: tokens.scope,
      needs_reconnect: 0,
      updated_at: now,
    };
    await this.db
      .insertInto('platform_connections')
      .values({ user_id: userId, platform, connected_at: now, ...values })
      .onConflict((conflict) => conflict.columns(['user_id', 'platform']).doUpdateSet({ ...values, connected_at: now }))
      .execute();
  }

  private async row(userId: string, platform: Platform): Promise<PlatformConnectionRow | undefined> {
    return this.db
      .selectFrom('platform_connections')
      .selectAll()
      .where('user_id', '=', userId)
      .where('platform', '=', platform)
      .executeTakeFirst();
  }

  private unseal(row: PlatformConnectionRow): ConnectionTokens {
    const accessToken = this.cipher.decrypt(row.access_token_sealed);
    // A token sealed under another key cannot be used: the creator connects again.
    if (accessToken === null) throw new PlatformError(row.platform as Platform, 'auth', 'stored token unreadable');
    return {
      accessToken,
      refreshToken: row.refresh_token_sealed ? this.cipher.decrypt(row.refresh_token_sealed) : null,
      accountId: row.account_id,
      accountName: row.account_name,
    };
  }

  /** The stored tokens as they are (disconnect revokes them), or null when not connected. */
  async tokens(userId: string, platform: Platform): Promise<ConnectionTokens | null> {
    const row = await this.row(userId, platform);
    return row ? this.unseal(row) : null;
  }

  /**
   * A usable access token: refreshed first when it expires within REFRESH_BEFORE_EXPIRY_MS, or when
   * `force` (the platform just answered 401). Null when not connected; an `auth` PlatformError (and
   * the connection marked for reconnecting) when the platform refuses the refresh.
   */
  async fresh(client: OAuthClient, userId: string, options: { force?: boolean } = {}): Promise<ConnectionTokens | null> {
    const row = await this.row(userId, client.platform);
    if (!row) return null;
    if (row.needs_reconnect === 1) throw new PlatformError(client.platform, 'auth', 'connection marked for reconnecting');
    const current = this.unseal(row);
    // updated_at is when the current token was stored (connected or refreshed).
    const expiring = refreshDue(client.refreshWindow ?? DEFAULT_WINDOW, row.updated_at, row.expires_at);
    if (!expiring && !options.force) return current;
    const key = `${userId}:${client.platform}`;
    let refresh = this.refreshing.get(key);
    if (!refresh) {
      refresh = this.refresh(client, userId, current).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, refresh);
    }
    return refresh;
  }

  private async refresh(client: OAuthClient, userId: string, current: ConnectionTokens): Promise<ConnectionTokens> {
    let tokens: TokenSet;
    try {
      tokens = await client.refresh(current);
    } catch (error) {
      if (error instanceof PlatformError && error.kind === 'auth') await this.markReconnect(userId, client.platform);
      throw error;
    }
    await this.db
      .updateTable('platform_connections')
      .set({
        access_token_sealed: this.cipher.encrypt(tokens.accessToken),
        refresh_token_sealed: tokens.refreshToken ? this.cipher.encrypt(tokens.refreshToken) : null,
        expires_at: tokens.expiresAt,
        updated_at: new Date().toISOString(),
      })
      .where('user_id', '=', userId)
      .where('platform', '=', client.platform)
      .execute();
    return { ...current, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
  }

  /**
   * Refreshes every connection of the client's platform that is due (at start and twice a day), so a
   * token with a long life and a refresh window (Instagram's 60 days) never lapses between posts.
   * Returns how many were refreshed; one refused is marked for reconnecting and the others go on.
   */
  async refreshAllDue(client: OAuthClient): Promise<number> {
    const window = client.refreshWindow ?? DEFAULT_WINDOW;
    const rows = await this.db
      .selectFrom('platform_connections')
      .select(['user_id', 'updated_at', 'expires_at'])
      .where('platform', '=', client.platform)
      .where('needs_reconnect', '=', 0)
      .where('expires_at', 'is not', null)
      .where('expires_at', '<', new Date(Date.now() + window.beforeExpiryMs).toISOString())
      .execute();
    let refreshed = 0;
    for (const row of rows) {
      if (!refreshDue(window, row.updated_at, row.expires_at)) continue;
      try {
        await this.fresh(client, row.user_id);
        refreshed += 1;
      } catch {
        // Marked for reconnecting when refused (fresh does it); a transient failure waits for the next sweep.
      }
    }
    return refreshed;
  }

  async markReconnect(userId: string, platform: Platform): Promise<void> {
    await this.db
      .updateTable('platform_connections')
      .set({ needs_reconnect: 1, updated_at: new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('platform', '=', platform)
      .execute();
  }

  async remove(userId: string, platform: Platform): Promise<void> {
    await this.db.deleteFrom('platform_connections').where('user_id', '=', userId).where('platform', '=', platform).execute();
  }
}
