import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local fakes of Google OAuth 2.0 + the YouTube Data API v3, TikTok (Login Kit, Content Posting API)
 * and Instagram (Instagram API with Instagram Login) on 127.0.0.1, speaking their wire formats: the
 * consent page a browser is sent to (for Playwright), the token endpoints, the uploads, and each
 * platform's error shapes. Tests point the server's *_URL variables at them and read back exactly
 * what was received.
 */

interface Request {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
  form(): URLSearchParams;
  json(): Record<string, unknown>;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | object;
}

/** A scripted failure: the next `count` requests whose path starts with `path` get `status` (the platform's error body). */
interface Failure {
  path: string;
  count: number;
  status: number;
  body?: object;
}

const json = (status: number, body: object, headers: Record<string, string> = {}): Reply => ({ status, headers, body });
const token = (prefix: string) => `${prefix}${randomBytes(18).toString('base64url')}`;

function send(res: ServerResponse, reply: Reply): void {
  const headers = { ...reply.headers };
  let body: string | undefined;
  if (typeof reply.body === 'string') body = reply.body;
  else if (reply.body !== undefined) {
    body = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json; charset=UTF-8';
  }
  res.writeHead(reply.status, headers);
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The consent page: the app's name, the account, Allow and Deny (each a link back to the redirect URI). */
function consentPage(platform: string, account: string, allow: string, deny: string): Reply {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(platform)} – authorize</title></head><body>
<main><h1>${escapeHtml(platform)}</h1><p>Reelsmith wants to post videos to ${escapeHtml(account)}.</p>
<a id="allow" href="${escapeHtml(allow)}">Allow</a> <a id="deny" href="${escapeHtml(deny)}">Deny</a></main></body></html>`,
  };
}

function redirectTo(target: string, params: Record<string, string>): Reply {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { status: 302, headers: { location: url.toString() } };
}

abstract class FakePlatform {
  url = '';
  private server: Server | null = null;
  private readonly failures: Failure[] = [];
  /** Every request, for asserting what the server sent. */
  readonly requests: { method: string; path: string }[] = [];

  /** The next `count` requests to a path starting with `path` answer `status` with the platform's error body. */
  failNext(path: string, count: number, status = 500, body?: object): void {
    this.failures.push({ path, count, status, ...(body ? { body } : {}) });
  }

  protected abstract handle(request: Request, req: IncomingMessage, res: ServerResponse): Promise<Reply | null>;
  protected abstract errorBody(status: number): object;

  /** Port 0: any free one (tests); a fixed one for the end-to-end server, which needs the URLs before it starts. */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      void this.dispatch(req, res).catch((error: unknown) => {
        if (!res.headersSent) send(res, json(500, { error: { message: String(error) } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/__health') return send(res, json(200, { ok: true }));
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname });
    const failure = this.failures.find((candidate) => candidate.count > 0 && url.pathname.startsWith(candidate.path));
    if (failure) {
      failure.count -= 1;
      await readBody(req);
      return send(res, json(failure.status, failure.body ?? this.errorBody(failure.status)));
    }
    // A handler may read the body itself (a streamed upload); otherwise it is read here.
    let body: Buffer | null = null;
    const request: Request = {
      method: req.method ?? 'GET',
      url,
      headers: req.headers,
      get body() {
        return body ?? Buffer.alloc(0);
      },
      form: () => new URLSearchParams(request.body.toString('utf8')),
      json: () => JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>,
    };
    if (!this.streams(request)) body = await readBody(req);
    const reply = await this.handle(request, req, res);
    if (reply) send(res, reply);
  }

  /** True for requests whose handler reads the body itself. */
  protected streams(_request: Request): boolean {
    return false;
  }
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  state: string;
  scope: string;
}

export interface FakeYouTubeVideo {
  id: string;
  metadata: { snippet: Record<string, unknown>; status: Record<string, unknown> };
  bytes: Buffer;
  declaredLength: number;
  captions: { snippet: Record<string, unknown>; body: string }[];
  thumbnail: Buffer | null;
}

/** Google's OAuth 2.0 endpoints and the YouTube Data API v3 (channels, resumable video upload, captions, thumbnails). */
export class FakeGoogle extends FakePlatform {
  readonly clientId = 'fake-google-client.apps.googleusercontent.com';
  readonly clientSecret = 'fake-google-secret';
  readonly channel = { id: 'UCfakeReelsmithChannel01', title: 'Reelsmith Test Channel' };
  private readonly codes = new Map<string, Grant>();
  private readonly refreshTokens = new Set<string>();
  /** The scopes each grant holds (Google's granular consent lets the account owner untick some). */
  private readonly grantScopes = new Map<string, string[]>();
  private readonly accessTokens = new Map<string, { refresh: string; expires: number }>();
  readonly revoked: string[] = [];
  private readonly sessions = new Map<
    string,
    { metadata: FakeYouTubeVideo['metadata']; length: number; received: Buffer[]; size: number; videoId?: string }
  >();
  readonly videos: FakeYouTubeVideo[] = [];
  /** Access tokens live this long (seconds): tests shorten it to see a refresh. */
  accessTokenSeconds = 3599;
  /** Break the connection of the next upload PUT once this many bytes of it arrived (a broken link mid-upload). */
  breakUploadAfterBytes: number | null = null;
  /** Custom thumbnails allowed on the channel (a new, unverified channel answers 403). */
  thumbnailsAllowed = true;
  /**
   * The scopes the account owner leaves ticked on the consent page; null: all that were asked. Google's
   * granular consent (developers.google.com/identity/protocols/oauth2/resources/granular-permissions)
   * lets a user grant some of the scopes, and the token answer's `scope` lists only those.
   */
  grantedScopes: string[] | null = null;
  /**
   * Whether Google has verified (audited) the API project: "All videos uploaded via the videos.insert
   * endpoint from unverified API projects created after 28 July 2020 will be restricted to private
   * viewing mode" (YouTube Data API, videos.insert).
   */
  projectVerified = true;
  /** Videos deleted with videos.delete. */
  readonly deleted: string[] = [];

  get env(): Record<string, string> {
    return {
      YOUTUBE_CLIENT_ID: this.clientId,
      YOUTUBE_CLIENT_SECRET: this.clientSecret,
      GOOGLE_OAUTH_AUTHORIZE_URL: `${this.url}/o/oauth2/v2/auth`,
      GOOGLE_OAUTH_TOKEN_URL: `${this.url}/token`,
      GOOGLE_OAUTH_REVOKE_URL: `${this.url}/revoke`,
      YOUTUBE_API_URL: this.url,
    };
  }

  /** An access token holding `scopes` (short names: youtube.upload), for tests that call the API without the consent page. */
  issueAccessToken(scopes: string[] = ['youtube.upload', 'youtube.force-ssl']): string {
    const refresh = token('1//0g');
    this.refreshTokens.add(refresh);
    this.grantScopes.set(
      refresh,
      scopes.map((scope) => `https://www.googleapis.com/auth/${scope}`),
    );
    return this.issue(refresh).access_token;
  }

  /** Withdraws every grant, as the account owner does at myaccount.google.com/permissions. */
  revokeAllGrants(): void {
    for (const refresh of this.refreshTokens) this.revoked.push(refresh);
    this.refreshTokens.clear();
    this.accessTokens.clear();
  }

  /** Tokens still valid (a disconnect leaves none). */
  get liveTokens(): number {
    return this.refreshTokens.size;
  }

  protected errorBody(status: number): object {
    return {
      error: { code: status, message: 'Backend Error', errors: [{ message: 'Backend Error', domain: 'global', reason: 'backendError' }] },
    };
  }

  private unauthorized(): Reply {
    return json(401, {
      error: {
        code: 401,
        message:
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        errors: [
          { message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' },
        ],
        status: 'UNAUTHENTICATED',
      },
    });
  }

  private authorized(request: Request): boolean {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const entry = bearer ? this.accessTokens.get(bearer) : undefined;
    return Boolean(entry && entry.expires > Date.now() && this.refreshTokens.has(entry.refresh));
  }

  /** True when the request's token was granted one of `scopes` (each method's reference lists the scopes it takes). */
  private hasScope(request: Request, scopes: string[]): boolean {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const refresh = bearer ? this.accessTokens.get(bearer)?.refresh : undefined;
    const granted = refresh ? (this.grantScopes.get(refresh) ?? []) : [];
    return scopes.some((scope) => granted.includes(`https://www.googleapis.com/auth/${scope}`));
  }

  /** YouTube's answer to a token without the method's scope. */
  private insufficientScope(): Reply {
    return json(403, {
      error: {
        code: 403,
        message: 'Request had insufficient authentication scopes.',
        errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }],
        status: 'PERMISSION_DENIED',
      },
    });
  }

  private issue(refresh: string): { access_token: string; expires_in: number } {
    const access = token('ya29.');
    this.accessTokens.set(access, { refresh, expires: Date.now() + this.accessTokenSeconds * 1000 });
    return { access_token: access, expires_in: this.accessTokenSeconds };
  }

  protected override streams(request: Request): boolean {
    return request.method === 'PUT' && request.url.pathname === '/upload/youtube/v3/videos';
  }

  protected async handle(request: Request, req: IncomingMessage, res: ServerResponse): Promise<Reply | null> {
    const { pathname, searchParams: query } = request.url;
    if (request.method === 'GET' && pathname === '/o/oauth2/v2/auth') {
      const redirectUri = query.get('redirect_uri') ?? '';
      if (query.get('client_id') !== this.clientId) return json(400, { error: 'invalid_client' });
      if (query.get('response_type') !== 'code') return json(400, { error: 'unsupported_response_type' });
      const challenge = query.get('code_challenge');
      if (challenge && query.get('code_challenge_method') !== 'S256') return json(400, { error: 'invalid_request' });
      const code = token('4/0A');
      this.codes.set(code, {
        clientId: this.clientId,
        redirectUri,
        challenge,
        state: query.get('state') ?? '',
        scope: query.get('scope') ?? '',
      });
      const state = query.get('state') ?? '';
      return consentPage(
        'Google',
        this.channel.title,
        redirectTo(redirectUri, { state, code, scope: query.get('scope') ?? '' }).headers!.location!,
        redirectTo(redirectUri, { state, error: 'access_denied' }).headers!.location!,
      );
    }
    if (request.method === 'POST' && pathname === '/token') {
      const form = request.form();
      if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret)
        return json(401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
      if (form.get('grant_type') === 'authorization_code') {
        const grant = this.codes.get(form.get('code') ?? '');
        this.codes.delete(form.get('code') ?? '');
        if (!grant || grant.redirectUri !== form.get('redirect_uri'))
          return json(400, { error: 'invalid_grant', error_description: 'Bad Request' });
        if (grant.challenge) {
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
            return json(400, { error: 'invalid_grant', error_description: 'Invalid code verifier.' });
        }
        const refresh = token('1//0g');
        this.refreshTokens.add(refresh);
        const asked = grant.scope.split(' ').filter(Boolean);
        const scopes = this.grantedScopes ? asked.filter((scope) => this.grantedScopes!.includes(scope)) : asked;
        this.grantScopes.set(refresh, scopes);
        return json(200, { ...this.issue(refresh), refresh_token: refresh, scope: scopes.join(' '), token_type: 'Bearer' });
      }
      if (form.get('grant_type') === 'refresh_token') {
        const refresh = form.get('refresh_token') ?? '';
        if (!this.refreshTokens.has(refresh))
          return json(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
        return json(200, { ...this.issue(refresh), scope: (this.grantScopes.get(refresh) ?? []).join(' '), token_type: 'Bearer' });
      }
      return json(400, { error: 'unsupported_grant_type' });
    }
    if (request.method === 'POST' && pathname === '/revoke') {
      const value = request.form().get('token') ?? query.get('token') ?? '';
      const refresh = this.refreshTokens.has(value) ? value : this.accessTokens.get(value)?.refresh;
      if (!refresh || !this.refreshTokens.has(refresh))
        return json(400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
      this.refreshTokens.delete(refresh);
      this.revoked.push(refresh);
      return json(200, {});
    }
    if (request.method === 'GET' && pathname === '/youtube/v3/channels') {
      if (!this.authorized(request)) return this.unauthorized();
      return json(200, {
        kind: 'youtube#channelListResponse',
        items: [{ kind: 'youtube#channel', id: this.channel.id, snippet: { title: this.channel.title } }],
      });
    }
    if (request.method === 'POST' && pathname === '/upload/youtube/v3/videos') {
      if (query.get('uploadType') !== 'resumable' || query.get('part') !== 'snippet,status')
        return json(400, { error: { code: 400, message: "'uploadType' and 'part' must be resumable and snippet,status" } });
      if (!this.authorized(request)) return this.unauthorized();
      // videos.insert takes youtube, youtube.force-ssl, youtube.upload or youtubepartner.
      if (!this.hasScope(request, ['youtube', 'youtube.force-ssl', 'youtube.upload', 'youtubepartner'])) return this.insufficientScope();
      const length = Number(request.headers['x-upload-content-length']);
      if (!Number.isInteger(length) || request.headers['x-upload-content-type'] !== 'video/mp4')
        return json(400, { error: { code: 400, message: 'X-Upload-Content-Length and X-Upload-Content-Type are required' } });
      const uploadId = token('AUpload');
      this.sessions.set(uploadId, { metadata: request.json() as FakeYouTubeVideo['metadata'], length, received: [], size: 0 });
      return { status: 200, headers: { location: `${this.url}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${uploadId}` } };
    }
    if (request.method === 'PUT' && pathname === '/upload/youtube/v3/videos') return this.uploadBytes(request, req, res);
    if (request.method === 'POST' && pathname === '/upload/youtube/v3/captions') {
      if (!this.authorized(request)) return this.unauthorized();
      // captions.insert takes youtube.force-ssl or youtubepartner only.
      if (!this.hasScope(request, ['youtube.force-ssl', 'youtubepartner'])) return this.insufficientScope();
      const boundary = /boundary=([^;]+)/.exec(request.headers['content-type'] ?? '')?.[1];
      if (!boundary || query.get('uploadType') !== 'multipart')
        return json(400, { error: { code: 400, message: 'multipart/related body expected' } });
      const parts = request.body
        .toString('utf8')
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, ''));
      const metadata = JSON.parse(parts[0] ?? '{}') as { snippet: Record<string, unknown> };
      const video = this.videos.find((candidate) => candidate.id === metadata.snippet.videoId);
      if (!video) return json(404, { error: { code: 404, message: 'The video identified by the videoId parameter could not be found.' } });
      // The captions guide (developers.google.com/youtube/v3/guides/implementation/captions): "When uploading
      // a track, you must specify a value for the following caption resource properties: snippet.videoId,
      // snippet.language, snippet.name".
      for (const property of ['videoId', 'language', 'name'])
        if (typeof metadata.snippet[property] !== 'string' || (metadata.snippet[property] as string).trim() === '')
          return json(400, {
            error: {
              code: 400,
              message: `The caption resource's snippet.${property} is required.`,
              errors: [{ message: `snippet.${property} is required`, domain: 'youtube.caption', reason: 'invalidValue' }],
            },
          });
      video.captions.push({ snippet: metadata.snippet, body: parts[1] ?? '' });
      return json(200, { kind: 'youtube#caption', id: token('AUieDa'), snippet: { ...metadata.snippet, status: 'serving' } });
    }
    if ((request.method === 'PUT' || request.method === 'DELETE') && pathname === '/youtube/v3/videos') {
      if (!this.authorized(request)) return this.unauthorized();
      // videos.update and videos.delete take youtube, youtube.force-ssl or youtubepartner (not youtube.upload).
      if (!this.hasScope(request, ['youtube', 'youtube.force-ssl', 'youtubepartner'])) return this.insufficientScope();
      const id = request.method === 'DELETE' ? query.get('id') : (request.json() as { id?: string }).id;
      const index = this.videos.findIndex((candidate) => candidate.id === id);
      if (index < 0)
        return json(404, {
          error: { code: 404, message: 'The video that you are trying to update cannot be found.', errors: [{ reason: 'videoNotFound' }] },
        });
      if (request.method === 'DELETE') {
        this.deleted.push(this.videos[index]!.id);
        this.videos.splice(index, 1);
        return { status: 204 };
      }
      if (query.get('part') !== 'status') return json(400, { error: { code: 400, message: 'part must be status here' } });
      const body = request.json() as { status?: Record<string, unknown> };
      if (typeof body.status?.privacyStatus !== 'string')
        return json(400, {
          error: { code: 400, message: 'status.privacyStatus is required', errors: [{ reason: 'invalidVideoMetadata' }] },
        });
      // A part is replaced whole: a publishAt left out is cleared.
      this.videos[index]!.metadata.status = body.status;
      return json(200, { kind: 'youtube#video', id, status: body.status });
    }
    if (request.method === 'POST' && pathname === '/upload/youtube/v3/thumbnails/set') {
      if (!this.authorized(request)) return this.unauthorized();
      const video = this.videos.find((candidate) => candidate.id === query.get('videoId'));
      if (!video) return json(404, { error: { code: 404, message: 'videoNotFound' } });
      if (!this.thumbnailsAllowed)
        return json(403, {
          error: { code: 403, message: 'The authenticated user does not have permissions to upload and set custom video thumbnails.' },
        });
      video.thumbnail = request.body;
      return json(200, {
        kind: 'youtube#thumbnailSetResponse',
        items: [{ default: { url: `https://i.ytimg.com/vi/${video.id}/default.jpg` } }],
      });
    }
    return json(404, { error: { code: 404, message: 'Not Found' } });
  }

  /** A chunk to the session URI, or a status query (`Content-Range: bytes *\/total`). */
  private async uploadBytes(request: Request, req: IncomingMessage, res: ServerResponse): Promise<Reply | null> {
    const session = this.sessions.get(request.url.searchParams.get('upload_id') ?? '');
    if (!session) {
      await readBody(req);
      return json(404, { error: { code: 404, message: 'upload session not found' } });
    }
    const range = request.headers['content-range'] ?? '';
    const status = () => {
      if (session.videoId)
        return json(
          200,
          this.videos.find((video) => video.id === session.videoId)!,
        );
      return { status: 308, headers: session.size > 0 ? { range: `bytes=0-${session.size - 1}` } : {} };
    };
    if (/^bytes \*\/\d+$/.test(range)) {
      await readBody(req);
      return status();
    }
    const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!match || Number(match[1]) !== session.size || Number(match[3]) !== session.length) {
      await readBody(req);
      return json(400, { error: { code: 400, message: `Content-Range must continue at byte ${session.size}` } });
    }
    const breakAt = this.breakUploadAfterBytes;
    if (breakAt !== null) this.breakUploadAfterBytes = null;
    const kept = await new Promise<boolean>((resolve) => {
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        if (breakAt !== null && received + chunk.length >= breakAt) {
          // What arrived before the break is kept, as YouTube keeps the bytes it persisted.
          const part = chunk.subarray(0, breakAt - received);
          session.received.push(part);
          session.size += part.length;
          received = breakAt;
          req.socket.destroy();
          resolve(false);
          return;
        }
        received += chunk.length;
        session.received.push(chunk);
        session.size += chunk.length;
      });
      req.on('end', () => resolve(true));
      req.on('error', () => resolve(false));
    });
    if (!kept) {
      res.destroy();
      return null;
    }
    if (session.size < session.length) return status();
    const id = `vid${randomBytes(4).toString('hex')}`;
    if (!this.projectVerified) {
      const { publishAt: _dropped, ...status } = session.metadata.status;
      session.metadata = { ...session.metadata, status: { ...status, privacyStatus: 'private' } };
    }
    const video: FakeYouTubeVideo = {
      id,
      metadata: session.metadata,
      bytes: Buffer.concat(session.received),
      declaredLength: session.length,
      captions: [],
      thumbnail: null,
    };
    this.videos.push(video);
    session.videoId = id;
    return json(200, {
      kind: 'youtube#video',
      id,
      snippet: session.metadata.snippet,
      status: { uploadStatus: 'uploaded', ...session.metadata.status },
    });
  }
}

export interface FakeTikTokPost {
  publishId: string;
  postInfo: Record<string, unknown>;
  sourceInfo: Record<string, unknown>;
  bytes: Buffer;
  chunks: string[];
  statusFetches: number;
  postId: string | null;
}

/** TikTok's Login Kit (web) and Content Posting API (Direct Post with FILE_UPLOAD). */
export class FakeTikTok extends FakePlatform {
  readonly clientKey = 'fakeclientkey123';
  readonly clientSecret = 'fake-tiktok-secret';
  readonly user = { openId: '-000fakeOpenId', username: 'reelsmith.test', displayName: 'Reelsmith Test' };
  /**
   * What creator_info lists: TikTok lists every level to an unaudited app too, and refuses at init
   * (Direct Post reference: "All content posted by unaudited clients will be restricted to private
   * viewing mode"; init answers 403 unaudited_client_can_only_post_to_private_accounts).
   */
  privacyLevelOptions = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
  /** Whether TikTok has audited the app. */
  audited = false;
  /** The creator's account is private (an unaudited app may post only to private accounts). */
  accountPrivate = true;
  /** What the creator turned off in TikTok (creator_info's comment_disabled, duet_disabled, stitch_disabled). */
  disabled = { comment: false, duet: false, stitch: false };
  /** Status fetches after PUBLISH_COMPLETE before a public post's id is there (moderation). */
  moderationFetches = 1;
  private readonly codes = new Map<string, string>();
  private readonly tokens = new Map<string, string>();
  private readonly refreshTokens = new Set<string>();
  readonly posts: FakeTikTokPost[] = [];
  readonly revoked: string[] = [];

  /** An access token for tests that call the Content Posting API without the consent page. */
  issueAccessToken(): string {
    const refresh = token('rft.');
    this.refreshTokens.add(refresh);
    const access = token('act.');
    this.tokens.set(access, refresh);
    return access;
  }
  /** When each post reached PUBLISH_COMPLETE (ms since epoch). */
  readonly publishedAt: number[] = [];

  get env(): Record<string, string> {
    return {
      TIKTOK_CLIENT_KEY: this.clientKey,
      TIKTOK_CLIENT_SECRET: this.clientSecret,
      TIKTOK_AUTH_URL: `${this.url}/v2/auth/authorize/`,
      TIKTOK_API_URL: this.url,
    };
  }

  protected errorBody(status: number): object {
    return { data: {}, error: { code: 'internal_error', message: `Something went wrong (${status}).`, log_id: token('log') } };
  }

  private ok(data: object): Reply {
    return json(200, { data, error: { code: 'ok', message: '', log_id: token('log') } });
  }

  private bearer(request: Request): boolean {
    const value = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    return value !== undefined && this.tokens.has(value);
  }

  private invalidToken(): Reply {
    return json(401, {
      error: { code: 'access_token_invalid', message: 'The access token is invalid or not found in the request.', log_id: token('log') },
    });
  }

  protected async handle(request: Request): Promise<Reply | null> {
    const { pathname, searchParams: query } = request.url;
    if (request.method === 'GET' && pathname === '/v2/auth/authorize/') {
      if (query.get('client_key') !== this.clientKey) return json(400, { error: 'invalid_client_key' });
      const redirectUri = query.get('redirect_uri') ?? '';
      const code = token('code-');
      this.codes.set(code, redirectUri);
      const state = query.get('state') ?? '';
      return consentPage(
        'TikTok',
        `@${this.user.username}`,
        redirectTo(redirectUri, { code, scopes: query.get('scope') ?? '', state }).headers!.location!,
        redirectTo(redirectUri, { error: 'access_denied', error_description: 'The user denied the request', state }).headers!.location!,
      );
    }
    if (request.method === 'POST' && pathname === '/v2/oauth/token/') {
      const form = request.form();
      if (form.get('client_key') !== this.clientKey || form.get('client_secret') !== this.clientSecret)
        return json(400, { error: 'invalid_client', error_description: 'Client key or secret is incorrect.', log_id: token('log') });
      let refresh: string;
      if (form.get('grant_type') === 'authorization_code') {
        const redirect = this.codes.get(form.get('code') ?? '');
        this.codes.delete(form.get('code') ?? '');
        if (redirect === undefined || redirect !== form.get('redirect_uri'))
          return json(400, { error: 'invalid_grant', error_description: 'Authorization code is expired.', log_id: token('log') });
        refresh = token('rft.');
        this.refreshTokens.add(refresh);
      } else if (form.get('grant_type') === 'refresh_token') {
        refresh = form.get('refresh_token') ?? '';
        if (!this.refreshTokens.has(refresh))
          return json(400, { error: 'invalid_grant', error_description: 'Refresh token is invalid or expired.', log_id: token('log') });
      } else return json(400, { error: 'unsupported_grant_type', error_description: 'grant_type', log_id: token('log') });
      const access = token('act.');
      this.tokens.set(access, refresh);
      return json(200, {
        access_token: access,
        expires_in: 86400,
        open_id: this.user.openId,
        refresh_expires_in: 31536000,
        refresh_token: refresh,
        scope: 'user.info.basic,video.publish',
        token_type: 'Bearer',
      });
    }
    if (request.method === 'POST' && pathname === '/v2/oauth/revoke/') {
      const access = request.form().get('token') ?? '';
      const refresh = this.tokens.get(access);
      if (refresh) {
        this.refreshTokens.delete(refresh);
        for (const [key, value] of this.tokens) if (value === refresh) this.tokens.delete(key);
        this.revoked.push(access);
      }
      return json(200, {});
    }
    if (request.method === 'GET' && pathname === '/v2/user/info/') {
      if (!this.bearer(request)) return this.invalidToken();
      return this.ok({ user: { open_id: this.user.openId, display_name: this.user.displayName } });
    }
    if (request.method === 'POST' && pathname === '/v2/post/publish/creator_info/query/') {
      if (!this.bearer(request)) return this.invalidToken();
      return this.ok({
        creator_avatar_url: 'https://p16.tiktokcdn.com/avatar.jpeg',
        creator_username: this.user.username,
        creator_nickname: this.user.displayName,
        privacy_level_options: this.privacyLevelOptions,
        comment_disabled: this.disabled.comment,
        duet_disabled: this.disabled.duet,
        stitch_disabled: this.disabled.stitch,
        max_video_post_duration_sec: 600,
      });
    }
    if (request.method === 'POST' && pathname === '/v2/post/publish/video/init/') {
      if (!this.bearer(request)) return this.invalidToken();
      const body = request.json() as { post_info?: Record<string, unknown>; source_info?: Record<string, unknown> };
      const source = body.source_info ?? {};
      const size = Number(source.video_size);
      const chunk = Number(source.chunk_size);
      const count = Number(source.total_chunk_count);
      const mb = 1024 * 1024;
      const invalid = (message: string) => json(400, { error: { code: 'invalid_params', message, log_id: token('log') } });
      if (source.source !== 'FILE_UPLOAD') return invalid('source must be FILE_UPLOAD here');
      if (!this.privacyLevelOptions.includes(String(body.post_info?.privacy_level)))
        return invalid('privacy_level is not in privacy_level_options');
      if (!this.audited && (body.post_info?.privacy_level !== 'SELF_ONLY' || !this.accountPrivate))
        return json(403, {
          error: {
            code: 'unaudited_client_can_only_post_to_private_accounts',
            message: 'Please review our integration guidelines at https://developers.tiktok.com/doc/content-sharing-guidelines/',
            log_id: token('log'),
          },
        });
      // The media transfer guide's chunk restrictions: "total_chunk_count should be equal to video_size
      // divided by chunk_size, rounded down"; "each chunk must be at least 5 MB but no greater than 64 MB,
      // except for the final chunk, which can be greater than chunk_size (up to 128 MB)"; "videos with a
      // total size less than 5 MB must be uploaded as a whole, with chunk_size equal to the entire video's
      // byte size"; "a minimum of 1 chunk and a maximum of 1000 chunks".
      const last = size - chunk * (count - 1);
      const chunksValid =
        size < 5 * mb
          ? chunk === size && count === 1
          : chunk >= 5 * mb && chunk <= 64 * mb && count >= 1 && count <= 1000 && count === Math.floor(size / chunk) && last <= 128 * mb;
      if (!chunksValid) return invalid('chunk_size and total_chunk_count do not follow the chunk rules');
      const publishId = `v_pub_file~v2-1.${randomBytes(8).toString('hex')}`;
      this.posts.push({
        publishId,
        postInfo: body.post_info ?? {},
        sourceInfo: source,
        bytes: Buffer.alloc(0),
        chunks: [],
        statusFetches: 0,
        postId: null,
      });
      return this.ok({
        publish_id: publishId,
        upload_url: `${this.url}/upload/?upload_id=${encodeURIComponent(publishId)}&upload_token=${token('')}`,
      });
    }
    if (request.method === 'PUT' && pathname === '/upload/') {
      const post = this.posts.find((candidate) => candidate.publishId === query.get('upload_id'));
      if (!post) return json(404, { error: { code: 'not_found', message: 'upload not found' } });
      const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(request.headers['content-range'] ?? '');
      if (!match || Number(match[1]) !== post.bytes.length || Number(match[2]) - Number(match[1]) + 1 !== request.body.length)
        return json(400, { error: { code: 'invalid_params', message: 'Content-Range does not match' } });
      post.chunks.push(request.headers['content-range']!);
      post.bytes = Buffer.concat([post.bytes, request.body]);
      return { status: post.bytes.length === Number(match[3]) ? 201 : 206 };
    }
    if (request.method === 'POST' && pathname === '/v2/post/publish/status/fetch/') {
      if (!this.bearer(request)) return this.invalidToken();
      const post = this.posts.find((candidate) => candidate.publishId === request.json().publish_id);
      if (!post) return json(400, { error: { code: 'invalid_publish_id', message: 'publish_id not found', log_id: token('log') } });
      const complete = post.bytes.length === Number(post.sourceInfo.video_size);
      post.statusFetches += 1;
      // Processing once, then published: a private post has no public id; a public one gets it after moderation.
      if (!complete || post.statusFetches < 2) return this.ok({ status: 'PROCESSING_UPLOAD', uploaded_bytes: post.bytes.length });
      if (post.postId === null) {
        post.postId = post.postInfo.privacy_level === 'SELF_ONLY' ? '' : String(7_300_000_000_000_000_000n + BigInt(this.posts.length));
        this.publishedAt.push(Date.now());
      }
      const moderated = post.statusFetches >= 2 + this.moderationFetches;
      const ids = post.postId && moderated ? [post.postId] : [];
      // The ids are 64-bit integers in TikTok's JSON (not strings), past what a double holds exactly.
      const envelope = JSON.stringify({
        data: { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: '__IDS__', uploaded_bytes: post.bytes.length },
        error: { code: 'ok', message: '', log_id: token('log') },
      });
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        body: envelope.replace('"__IDS__"', `[${ids.join(',')}]`),
      };
    }
    return json(404, { error: { code: 'not_found', message: 'Not Found' } });
  }
}

export interface FakeInstagramReel {
  containerId: string;
  params: Record<string, string>;
  bytes: Buffer | null;
  mediaId: string | null;
}

/** Instagram API with Instagram Login: authorization, short- and long-lived tokens, Reels containers and media_publish. */
export class FakeInstagram extends FakePlatform {
  readonly appId = '990011223344';
  readonly appSecret = 'fake-instagram-secret';
  readonly user = { id: '17841400000000001', username: 'reelsmith.test' };
  private readonly codes = new Map<string, string>();
  /** Each token's issue and expiry times (ms since epoch); `ageTokens` moves them back to stand for time passing. */
  private readonly tokenTimes = new Map<string, { issued: number; expires: number; long: boolean }>();
  /** Every refresh_access_token call and its answer's status. */
  readonly refreshes: { status: number }[] = [];
  readonly reels: FakeInstagramReel[] = [];
  readonly publishedAt: number[] = [];

  private addToken(value: string, lifetimeMs: number, long: boolean): void {
    this.tokenTimes.set(value, { issued: Date.now(), expires: Date.now() + lifetimeMs, long });
  }

  private valid(value: string): boolean {
    const times = this.tokenTimes.get(value);
    return Boolean(times && times.expires > Date.now());
  }

  /** Every token as if `ms` had passed since it was issued (a connection made 59 days ago). */
  ageTokens(ms: number): void {
    for (const times of this.tokenTimes.values()) {
      times.issued -= ms;
      times.expires -= ms;
    }
  }

  get env(): Record<string, string> {
    return {
      INSTAGRAM_APP_ID: this.appId,
      INSTAGRAM_APP_SECRET: this.appSecret,
      INSTAGRAM_AUTH_URL: `${this.url}/oauth/authorize`,
      INSTAGRAM_TOKEN_URL: `${this.url}/oauth/access_token`,
      INSTAGRAM_GRAPH_URL: this.url,
    };
  }

  protected errorBody(status: number): object {
    return {
      error: {
        message: `An unexpected error has occurred (${status}). Please retry your request later.`,
        type: 'OAuthException',
        is_transient: true,
        code: 2,
        fbtrace_id: token('A'),
      },
    };
  }

  private invalidToken(): Reply {
    return json(400, {
      error: {
        message: 'Invalid OAuth access token - Cannot parse access token',
        type: 'OAuthException',
        code: 190,
        fbtrace_id: token('A'),
      },
    });
  }

  protected async handle(request: Request): Promise<Reply | null> {
    const { pathname, searchParams: query } = request.url;
    const params = new URLSearchParams(query);
    if (request.method === 'POST') for (const [name, value] of request.form()) params.set(name, value);
    if (request.method === 'GET' && pathname === '/oauth/authorize') {
      if (query.get('client_id') !== this.appId)
        return json(400, { error_type: 'OAuthException', code: 400, error_message: 'Invalid platform app' });
      const redirectUri = query.get('redirect_uri') ?? '';
      const code = token('AQ');
      this.codes.set(code, redirectUri);
      const state = query.get('state') ?? '';
      return consentPage(
        'Instagram',
        `@${this.user.username}`,
        redirectTo(redirectUri, { code, state }).headers!.location!,
        redirectTo(redirectUri, { error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error', state })
          .headers!.location!,
      );
    }
    if (request.method === 'POST' && pathname === '/oauth/access_token') {
      const redirect = this.codes.get(params.get('code') ?? '');
      this.codes.delete(params.get('code') ?? '');
      if (
        params.get('client_id') !== this.appId ||
        params.get('client_secret') !== this.appSecret ||
        redirect !== params.get('redirect_uri')
      )
        return json(400, { error_type: 'OAuthException', code: 400, error_message: 'Invalid authorization code' });
      const short = token('IGQ');
      // Short-lived: one hour.
      this.addToken(short, 3600_000, false);
      return json(200, {
        data: [{ access_token: short, user_id: this.user.id, permissions: 'instagram_business_basic,instagram_business_content_publish' }],
      });
    }
    if (request.method === 'GET' && (pathname === '/access_token' || pathname === '/refresh_access_token')) {
      const given = params.get('access_token') ?? '';
      if (pathname === '/refresh_access_token') {
        // Refresh Access Token reference: "Refresh a long-lived access token that is at least 24 hours old
        // but has not expired. Refreshed tokens are valid for 60 days from the date at which they are refreshed."
        const times = this.tokenTimes.get(given);
        const refusal =
          !times || !this.valid(given) || !times.long
            ? 'expired or not a long-lived token'
            : Date.now() - times.issued < 24 * 3600_000
              ? 'less than 24 hours old'
              : null;
        if (params.get('grant_type') !== 'ig_refresh_token' || refusal) {
          this.refreshes.push({ status: 400 });
          return json(400, {
            error: {
              message: `Error validating access token: the token cannot be refreshed (${refusal ?? 'grant_type'})`,
              type: 'OAuthException',
              code: 190,
              fbtrace_id: token('A'),
            },
          });
        }
        this.refreshes.push({ status: 200 });
      } else {
        if (!this.valid(given) || params.get('client_secret') !== this.appSecret) return this.invalidToken();
      }
      const long = token('IGAA');
      this.addToken(long, 5183944 * 1000, true);
      return json(200, { access_token: long, token_type: 'bearer', expires_in: 5183944 });
    }
    const graph = /^\/v\d+\.\d+\/([^/]+)(?:\/([a-z_]+))?$/.exec(pathname);
    if (!graph) return json(404, { error: { message: 'Unknown path', type: 'GraphMethodException', code: 100 } });
    if (!this.valid(params.get('access_token') ?? '')) return this.invalidToken();
    const [, node, edge] = graph;
    if (request.method === 'GET' && node === 'me')
      return json(200, { user_id: this.user.id, username: this.user.username, id: this.user.id });
    if (request.method === 'POST' && node === this.user.id && edge === 'media') {
      if (params.get('media_type') !== 'REELS' || !params.get('video_url'))
        return json(400, { error: { message: 'media_type REELS and video_url are required', type: 'OAuthException', code: 100 } });
      const reel: FakeInstagramReel = {
        containerId: `1790${randomBytes(6).toString('hex')}`,
        params: Object.fromEntries(params),
        bytes: null,
        mediaId: null,
      };
      this.reels.push(reel);
      // Instagram cURLs the video from its public address while the container is IN_PROGRESS.
      void fetch(params.get('video_url')!)
        .then(async (response) => (reel.bytes = response.ok ? Buffer.from(await response.arrayBuffer()) : Buffer.alloc(0)))
        .catch(() => (reel.bytes = Buffer.alloc(0)));
      return json(200, { id: reel.containerId });
    }
    if (request.method === 'POST' && node === this.user.id && edge === 'media_publish') {
      const reel = this.reels.find((candidate) => candidate.containerId === params.get('creation_id'));
      if (!reel || !reel.bytes?.length)
        return json(400, { error: { message: 'Media ID is not available', type: 'OAuthException', code: 9007, error_subcode: 2207027 } });
      reel.mediaId ??= `1791${randomBytes(6).toString('hex')}`;
      this.publishedAt.push(Date.now());
      return json(200, { id: reel.mediaId });
    }
    if (request.method === 'GET') {
      const reel = this.reels.find((candidate) => candidate.containerId === node);
      if (reel) {
        const code = reel.mediaId ? 'PUBLISHED' : reel.bytes === null ? 'IN_PROGRESS' : reel.bytes.length > 0 ? 'FINISHED' : 'ERROR';
        return json(200, { status_code: code, ...(code === 'ERROR' ? { status: 'Error: Media download has failed.' } : {}), id: node });
      }
      const media = this.reels.find((candidate) => candidate.mediaId === node);
      if (media) return json(200, { permalink: `https://www.instagram.com/reel/C${media.mediaId!.slice(-8)}/`, id: node });
    }
    return json(404, { error: { message: 'Unsupported request', type: 'GraphMethodException', code: 100 } });
  }
}

/** All three fakes, started; `env` is what the server needs to use them. */
export async function startFakePublishingPlatforms(basePort = 0): Promise<{
  google: FakeGoogle;
  tiktok: FakeTikTok;
  instagram: FakeInstagram;
  env: Record<string, string>;
  close(): Promise<void>;
}> {
  const port = (offset: number) => (basePort === 0 ? 0 : basePort + offset);
  const [google, tiktok, instagram] = await Promise.all([
    new FakeGoogle().start(port(0)),
    new FakeTikTok().start(port(1)),
    new FakeInstagram().start(port(2)),
  ]);
  return {
    google,
    tiktok,
    instagram,
    env: { ...google.env, ...tiktok.env, ...instagram.env },
    close: async () => {
      await Promise.all([google.close(), tiktok.close(), instagram.close()]);
    },
  };
}

/** What the server needs to use fakes started with `startFakePublishingPlatforms(basePort)`, known before they start. */
export function fakePublishingEnv(basePort: number): Record<string, string> {
  const at = <T extends FakePlatform>(fake: T, offset: number): T => Object.assign(fake, { url: `http://127.0.0.1:${basePort + offset}` });
  return { ...at(new FakeGoogle(), 0).env, ...at(new FakeTikTok(), 1).env, ...at(new FakeInstagram(), 2).env };
}
