import { PUBLISHING_MESSAGES, type Platform } from '@reelsmith/contracts';
import { createHash, randomBytes } from 'node:crypto';
import type { PublishingSettings } from '../config.js';
import { field, formBody, isTransientStatus, platformFetch, PlatformError, stringField, type PlatformResponse } from './platform-http.js';

/** What a token endpoint gave: the access token, and a refresh token when the platform issues one. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** ISO time the access token stops working; null when the platform did not say. */
  expiresAt: string | null;
  scope: string;
}

export interface ConnectedAccount {
  id: string;
  name: string;
}

/**
 * One platform's OAuth 2.0 client (authorization code; PKCE S256 where the platform supports it on
 * the web: Google). Each speaks its platform's own token format and error shapes.
 */
export interface OAuthClient {
  readonly platform: Platform;
  readonly usesPkce: boolean;
  authorizationUrl(input: { state: string; redirectUri: string; codeChallenge: string | null }): string;
  exchangeCode(input: { code: string; redirectUri: string; codeVerifier: string | null }): Promise<TokenSet>;
  /** The account the tokens act for (shown in Settings, and the id some APIs need). */
  account(tokens: TokenSet): Promise<ConnectedAccount>;
  /** A new access token; an `auth` PlatformError when the platform refuses (revoked, expired). */
  refresh(tokens: { accessToken: string; refreshToken: string | null }): Promise<TokenSet>;
  /** Ends the permission at the platform (disconnect). */
  revoke(tokens: { accessToken: string; refreshToken: string | null }): Promise<void>;
  /** When a token is refreshed ahead of use; absent: within REFRESH_BEFORE_EXPIRY_MS of its expiry. */
  readonly refreshWindow?: RefreshWindow;
}

export interface RefreshWindow {
  /** Refreshed once it expires within this long. */
  beforeExpiryMs: number;
  /** Never refreshed younger than this (the platform refuses). */
  minAgeMs: number;
}

const HOUR = 3600_000;
/**
 * Instagram's long-lived tokens last 60 days and refresh_access_token takes only one "at least 24
 * hours old but has not expired": refreshed from 10 days before expiry, never within a day of issue,
 * so a creator who publishes now and then never has to connect again.
 */
export const INSTAGRAM_REFRESH_WINDOW: RefreshWindow = { beforeExpiryMs: 10 * 24 * HOUR, minAgeMs: 24 * HOUR };

export const newOAuthState = (): string => randomBytes(24).toString('base64url');
/** RFC 7636: 43-128 characters of the unreserved set; 32 random bytes give 43. */
export const newCodeVerifier = (): string => randomBytes(32).toString('base64url');
export const codeChallengeS256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

const expiresAt = (seconds: unknown): string | null =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(Date.now() + seconds * 1000).toISOString() : null;

/** RFC 6749 §5.2 errors (`error`, `error_description`): invalid_grant means the permission is gone. */
function oauthError(platform: Platform, response: PlatformResponse, what: string): PlatformError {
  const code = stringField(response.json, 'error') ?? '';
  const description = stringField(response.json, 'error_description') ?? stringField(response.json, 'error_message') ?? code;
  if (isTransientStatus(response.status))
    return new PlatformError(platform, 'transient', `${what}: HTTP ${response.status}`, response.status);
  if (code === 'invalid_grant' || code === 'invalid_token' || response.status === 401)
    return new PlatformError(platform, 'auth', PUBLISHING_MESSAGES.reconnect(platform), response.status);
  return new PlatformError(platform, 'rejected', `${what}: ${description || `HTTP ${response.status}`}`, response.status);
}

const YOUTUBE_SCOPES = ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl'];
/** The scopes videos.insert takes (its reference's Authorization section): any one lets us upload. */
const YOUTUBE_UPLOAD_SCOPES = ['youtube', 'youtube.force-ssl', 'youtube.upload', 'youtubepartner'].map(
  (scope) => `https://www.googleapis.com/auth/${scope}`,
);

/**
 * What a connection's granted scopes leave out that publishing needs, as the creator should hear it.
 * Google's granular consent lets the account owner untick a scope; the token answer lists what was given.
 */
export function connectionProblem(platform: Platform, grantedScope: string): string | undefined {
  if (platform !== 'youtube') return undefined;
  const granted = grantedScope.split(/[\s,]+/);
  return YOUTUBE_UPLOAD_SCOPES.some((scope) => granted.includes(scope)) ? undefined : PUBLISHING_MESSAGES.youtubeMissingUploadScope;
}

function googleClient(settings: NonNullable<PublishingSettings['youtube']>): OAuthClient {
  const tokenSet = (json: unknown, previousRefresh: string | null): TokenSet => ({
    accessToken: stringField(json, 'access_token') ?? '',
    // Google sends a refresh token only with the first consent (access_type=offline, prompt=consent).
    refreshToken: stringField(json, 'refresh_token') ?? previousRefresh,
    expiresAt: expiresAt(field(json, 'expires_in')),
    scope: stringField(json, 'scope') ?? '',
  });
  return {
    platform: 'youtube',
    usesPkce: true,
    authorizationUrl({ state, redirectUri, codeChallenge }) {
      const url = new URL(settings.authorizeUrl);
      url.search = formBody({
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: YOUTUBE_SCOPES.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
        ...(codeChallenge ? { code_challenge: codeChallenge, code_challenge_method: 'S256' } : {}),
      }).toString();
      return url.toString();
    },
    async exchangeCode({ code, redirectUri, codeVerifier }) {
      const response = await platformFetch('youtube', settings.tokenUrl, {
        method: 'POST',
        body: formBody({
          code,
          client_id: settings.clientId,
          client_secret: settings.clientSecret,
          redirect_uri: redirectUri,
          grant_type: 'authorization_code',
          code_verifier: codeVerifier ?? undefined,
        }),
      });
      if (response.status !== 200) throw oauthError('youtube', response, 'Google token exchange');
      return tokenSet(response.json, null);
    },
    async account(tokens) {
      const url = `${settings.apiUrl}/youtube/v3/channels?part=snippet&mine=true`;
      const response = await platformFetch('youtube', url, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      // The creator hears what to do, not the status code (the log keeps it).
      if (isTransientStatus(response.status)) throw oauthError('youtube', response, 'YouTube channel look-up');
      if (response.status === 401 || response.status === 403)
        throw new PlatformError('youtube', 'rejected', PUBLISHING_MESSAGES.youtubeMissingUploadScope, response.status);
      if (response.status !== 200)
        throw new PlatformError('youtube', 'rejected', PUBLISHING_MESSAGES.connectionFailed('youtube'), response.status);
      const items = field(response.json, 'items');
      const channel = Array.isArray(items) ? (items[0] as unknown) : undefined;
      const id = stringField(channel, 'id');
      if (!id) throw new PlatformError('youtube', 'rejected', PUBLISHING_MESSAGES.noYouTubeChannel);
      return { id, name: stringField(channel, 'snippet', 'title') ?? id };
    },
    async refresh(tokens) {
      if (!tokens.refreshToken) throw new PlatformError('youtube', 'auth', PUBLISHING_MESSAGES.reconnect('youtube'));
      const response = await platformFetch('youtube', settings.tokenUrl, {
        method: 'POST',
        body: formBody({
          client_id: settings.clientId,
          client_secret: settings.clientSecret,
          refresh_token: tokens.refreshToken,
          grant_type: 'refresh_token',
        }),
      });
      if (response.status !== 200) throw oauthError('youtube', response, 'Google token refresh');
      return tokenSet(response.json, tokens.refreshToken);
    },
    async revoke(tokens) {
      // Revoking the refresh token ends the whole grant (its access tokens too).
      const response = await platformFetch('youtube', settings.revokeUrl, {
        method: 'POST',
        body: formBody({ token: tokens.refreshToken ?? tokens.accessToken }),
      });
      // 400 invalid_token: already revoked or expired, which is what disconnecting wants.
      if (response.status !== 200 && response.status !== 400) throw oauthError('youtube', response, 'Google revoke');
    },
  };
}

function tiktokClient(settings: NonNullable<PublishingSettings['tiktok']>): OAuthClient {
  const api = (path: string) => `${settings.apiUrl}${path}`;
  const tokenSet = (json: unknown): TokenSet => ({
    accessToken: stringField(json, 'access_token') ?? '',
    refreshToken: stringField(json, 'refresh_token') ?? null,
    expiresAt: expiresAt(field(json, 'expires_in')),
    scope: stringField(json, 'scope') ?? '',
  });
  /** TikTok's token endpoint answers 200 with `error` in the body on a refused grant. */
  const tokenAnswer = (response: PlatformResponse, what: string): TokenSet => {
    if (response.status !== 200 || stringField(response.json, 'error') || !stringField(response.json, 'access_token'))
      throw oauthError('tiktok', response, what);
    return tokenSet(response.json);
  };
  return {
    platform: 'tiktok',
    // Login Kit for Web takes no PKCE (desktop and mobile apps use it); the state is checked.
    usesPkce: false,
    authorizationUrl({ state, redirectUri }) {
      const url = new URL(settings.authUrl);
      url.search = formBody({
        client_key: settings.clientKey,
        scope: 'user.info.basic,video.publish',
        response_type: 'code',
        redirect_uri: redirectUri,
        state,
      }).toString();
      return url.toString();
    },
    async exchangeCode({ code, redirectUri }) {
      const response = await platformFetch('tiktok', api('/v2/oauth/token/'), {
        method: 'POST',
        body: formBody({
          client_key: settings.clientKey,
          client_secret: settings.clientSecret,
          code,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
        }),
      });
      return tokenAnswer(response, 'TikTok token exchange');
    },
    async account(tokens) {
      const response = await platformFetch('tiktok', api('/v2/user/info/?fields=open_id,display_name'), {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      const id = stringField(response.json, 'data', 'user', 'open_id');
      if (response.status !== 200 || !id) {
        const error = tiktokApiError(response, 'TikTok user look-up');
        throw error.kind === 'rejected'
          ? new PlatformError('tiktok', 'rejected', PUBLISHING_MESSAGES.connectionFailed('tiktok'), error.status)
          : error;
      }
      return { id, name: stringField(response.json, 'data', 'user', 'display_name') ?? id };
    },
    async refresh(tokens) {
      if (!tokens.refreshToken) throw new PlatformError('tiktok', 'auth', PUBLISHING_MESSAGES.reconnect('tiktok'));
      const response = await platformFetch('tiktok', api('/v2/oauth/token/'), {
        method: 'POST',
        body: formBody({
          client_key: settings.clientKey,
          client_secret: settings.clientSecret,
          grant_type: 'refresh_token',
          refresh_token: tokens.refreshToken,
        }),
      });
      return tokenAnswer(response, 'TikTok token refresh');
    },
    async revoke(tokens) {
      const response = await platformFetch('tiktok', api('/v2/oauth/revoke/'), {
        method: 'POST',
        body: formBody({ client_key: settings.clientKey, client_secret: settings.clientSecret, token: tokens.accessToken }),
      });
      if (response.status !== 200 && response.status !== 400 && response.status !== 401)
        throw oauthError('tiktok', response, 'TikTok revoke');
    },
  };
}

/**
 * TikTok's Open API wraps every answer in `{data, error: {code, message, log_id}}`; `ok` is success.
 * access_token_invalid and scope_not_authorized mean the permission is gone.
 */
export function tiktokApiError(response: PlatformResponse, what: string): PlatformError {
  const code = stringField(response.json, 'error', 'code') ?? '';
  const message = stringField(response.json, 'error', 'message') || code || `HTTP ${response.status}`;
  if (isTransientStatus(response.status) || code === 'rate_limit_exceeded')
    return new PlatformError('tiktok', 'transient', `${what}: ${message}`, response.status);
  if (response.status === 401 || code === 'access_token_invalid' || code === 'scope_not_authorized')
    return new PlatformError('tiktok', 'auth', PUBLISHING_MESSAGES.reconnect('tiktok'), response.status);
  return new PlatformError('tiktok', 'rejected', `${what}: ${message}`, response.status);
}

export const INSTAGRAM_THROTTLING_CODES: readonly number[] = [4, 17, 32, 613];

/** Graph API errors: `{error: {message, type, code, error_subcode}}`; code 190 is an invalid or expired token. */
export function graphApiError(response: PlatformResponse, what: string): PlatformError {
  const code = field(response.json, 'error', 'code');
  const message =
    stringField(response.json, 'error', 'message') ?? stringField(response.json, 'error_message') ?? `HTTP ${response.status}`;
  // Graph API throttling: 4 (application request limit), 17 (user request limit), 32 (page request
  // limit), 613 (calls within one hour exceeded): retried after a wait, as the rate limiting docs ask.
  if (typeof code === 'number' && INSTAGRAM_THROTTLING_CODES.includes(code))
    return new PlatformError('instagram', 'transient', PUBLISHING_MESSAGES.instagramThrottled, response.status);
  if (isTransientStatus(response.status) || field(response.json, 'error', 'is_transient') === true)
    return new PlatformError('instagram', 'transient', `${what}: ${message}`, response.status);
  if (code === 190 || response.status === 401)
    return new PlatformError('instagram', 'auth', PUBLISHING_MESSAGES.reconnect('instagram'), response.status);
  return new PlatformError('instagram', 'rejected', `${what}: ${message}`, response.status);
}

/** The Graph API version the Instagram calls use. */
export const INSTAGRAM_GRAPH_VERSION = 'v21.0';

function instagramClient(settings: NonNullable<PublishingSettings['instagram']>): OAuthClient {
  const graph = (path: string) => `${settings.graphUrl}${path}`;
  const longLived = (json: unknown): TokenSet => ({
    accessToken: stringField(json, 'access_token') ?? '',
    // A long-lived Instagram token refreshes itself (ig_refresh_token); there is no separate refresh token.
    refreshToken: null,
    expiresAt: expiresAt(field(json, 'expires_in')),
    scope: '',
  });
  return {
    platform: 'instagram',
    // Instagram Login takes no PKCE; the state is checked.
    usesPkce: false,
    refreshWindow: INSTAGRAM_REFRESH_WINDOW,
    authorizationUrl({ state, redirectUri }) {
      const url = new URL(settings.authUrl);
      url.search = formBody({
        client_id: settings.appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'instagram_business_basic,instagram_business_content_publish',
        state,
      }).toString();
      return url.toString();
    },
    async exchangeCode({ code, redirectUri }) {
      const short = await platformFetch('instagram', settings.tokenUrl, {
        method: 'POST',
        body: formBody({
          client_id: settings.appId,
          client_secret: settings.appSecret,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code,
        }),
      });
      // The answer is `{data: [{access_token, user_id, permissions}]}` (older apps: the object alone).
      const data = field(short.json, 'data');
      const entry = Array.isArray(data) ? (data[0] as unknown) : short.json;
      const shortToken = stringField(entry, 'access_token');
      if (short.status !== 200 || !shortToken) throw graphApiError(short, 'Instagram code exchange');
      const url = new URL(graph('/access_token'));
      url.search = formBody({ grant_type: 'ig_exchange_token', client_secret: settings.appSecret, access_token: shortToken }).toString();
      const long = await platformFetch('instagram', url.toString());
      if (long.status !== 200 || !stringField(long.json, 'access_token')) throw graphApiError(long, 'Instagram long-lived token');
      return { ...longLived(long.json), scope: stringField(entry, 'permissions') ?? '' };
    },
    async account(tokens) {
      const url = new URL(graph(`/${INSTAGRAM_GRAPH_VERSION}/me`));
      url.search = formBody({ fields: 'user_id,username', access_token: tokens.accessToken }).toString();
      const response = await platformFetch('instagram', url.toString());
      const id = stringField(response.json, 'user_id') ?? stringField(response.json, 'id');
      if (response.status !== 200 || !id) {
        const error = graphApiError(response, 'Instagram account look-up');
        throw error.kind === 'rejected'
          ? new PlatformError('instagram', 'rejected', PUBLISHING_MESSAGES.connectionFailed('instagram'), error.status)
          : error;
      }
      return { id, name: stringField(response.json, 'username') ?? id };
    },
    async refresh(tokens) {
      const url = new URL(graph('/refresh_access_token'));
      url.search = formBody({ grant_type: 'ig_refresh_token', access_token: tokens.accessToken }).toString();
      const response = await platformFetch('instagram', url.toString());
      if (response.status !== 200 || !stringField(response.json, 'access_token')) throw graphApiError(response, 'Instagram token refresh');
      return longLived(response.json);
    },
    async revoke() {
      // Instagram Login has no revocation endpoint: the creator removes the app in Instagram's settings
      // (the app's deauthorize callback); the token is deleted here and expires on its own.
    },
  };
}

/** The clients of the platforms this server has credentials for. */
export function createOAuthClients(settings: PublishingSettings): Partial<Record<Platform, OAuthClient>> {
  return {
    ...(settings.youtube ? { youtube: googleClient(settings.youtube) } : {}),
    ...(settings.tiktok ? { tiktok: tiktokClient(settings.tiktok) } : {}),
    ...(settings.instagram ? { instagram: instagramClient(settings.instagram) } : {}),
  };
}
