import {
  API,
  MESSAGES,
  PLATFORM_CONSTRAINTS,
  PLATFORMS,
  PUBLISHING_MESSAGES as M,
  type ConnectionErrorCode,
  type Platform,
} from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest, conflict, notFound } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { findUserJob } from '../video-jobs/video-job-repository.js';
import { parseResult } from '../video-jobs/video-job-view.js';
import { ConnectionStore } from './connection-store.js';
import { instagramPublisher } from './instagram-publisher.js';
import { codeChallengeS256, connectionProblem, createOAuthClients, newCodeVerifier, newOAuthState } from './oauth-clients.js';
import { PlatformError } from './platform-http.js';
import {
  cancelHeldPublication,
  cancelQueuedPublication,
  cancelUserPublications,
  findPublication,
  insertPublications,
  listUserPublications,
  listVideoPublications,
  toPublication,
  type NewPublication,
} from './publication-store.js';
import { PublicationEvents, PublicationRunner, type PublicationTimings } from './publication-runner.js';
import type { Publisher } from './publisher.js';
import { tiktokPublisher } from './tiktok-publisher.js';
import { youtubePublisher } from './youtube-publisher.js';

export interface PublishingPluginOptions {
  /** Start the publishing queue once the app is ready (default true). */
  autoStart?: boolean;
  /** Poll, retry and claim timings (tests shorten them). */
  timings?: PublicationTimings;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every change of a publication, for the creator's sockets. */
    publicationEvents: PublicationEvents;
    publicationRunner: PublicationRunner;
    /**
     * A suspended account posts nothing more: its publications on their way are cancelled (`note`
     * says why), its runs here stopped, and every platform connection revoked and deleted.
     */
    endAccountPublishing(userId: string, note: string): Promise<{ cancelled: number; revoked: number }>;
  }
}

/** Where Settings shows the connections; the callback sends the browser back here with the outcome. */
const SETTINGS_PATH = '/settings';

/**
 * Connections to YouTube, TikTok and Instagram (OAuth 2.0 with each, tokens sealed at rest) and the
 * publications of finished videos with them, run by the publishing queue (publication-runner.ts).
 */
export const publishingPlugin = fp<PublishingPluginOptions>(
  async (app, options) => {
    const settings = app.config.publishing;
    const clients = createOAuthClients(settings);
    const offered = PLATFORMS.filter((platform) => clients[platform] !== undefined);
    const publishers: Partial<Record<Platform, Publisher>> = {
      ...(settings.youtube ? { youtube: youtubePublisher(settings.youtube.apiUrl) } : {}),
      ...(settings.tiktok ? { tiktok: tiktokPublisher(settings.tiktok.apiUrl, { audited: settings.tiktok.audited }) } : {}),
      ...(settings.instagram ? { instagram: instagramPublisher(settings.instagram.graphUrl) } : {}),
    };
    const connections = new ConnectionStore(app.db, app.config.encryption.key);
    const events = new PublicationEvents();
    const runner = new PublicationRunner({
      db: app.db,
      connections,
      clients,
      publishers,
      storage: app.storage,
      publicUrl: app.config.publicUrl,
      webhooks: app.webhookDispatcher,
      events,
      log: app.log.child({ module: 'publishing' }),
      ...(options.timings ? { timings: options.timings } : {}),
      // The metrics plugin registers after this one; by the time a publication runs, it is there.
      onPublishCall: ({ platform, ...call }) => {
        if (app.hasDecorator('metrics')) app.metrics.providerCalled({ kind: 'publishing', provider: platform, ...call });
      },
    });
    app.decorate('publicationEvents', events);
    app.decorate('publicationRunner', runner);
    app.decorate('endAccountPublishing', async (userId: string, note: string) => {
      const cancelled = await cancelUserPublications(app.db, userId, note);
      for (const row of cancelled) events.emit('publication', toPublication(row), userId);
      await runner.stopUser(userId);
      let revoked = 0;
      for (const platform of PLATFORMS) {
        const tokens = await connections.tokens(userId, platform).catch(() => null);
        const client = clients[platform];
        if (tokens && client) {
          try {
            await client.revoke(tokens);
            revoked += 1;
          } catch (caught) {
            // Deleted whatever the platform answers: nothing of the connection stays here.
            app.log.warn({ platform, err: caught }, 'platform did not confirm the revocation');
          }
        }
        await connections.remove(userId, platform);
      }
      return { cancelled: cancelled.length, revoked };
    });
    if (options.autoStart !== false) app.addHook('onReady', async () => runner.start());
    app.addHook('preClose', async () => runner.stop());

    // Tokens with a refresh window (Instagram's: from 10 days before expiry, never under a day old) are
    // refreshed at start and twice a day, so a creator who posts rarely never has to connect again.
    const sweepTokens = async () => {
      for (const client of Object.values(clients)) {
        if (!client.refreshWindow) continue;
        const refreshed = await connections.refreshAllDue(client);
        if (refreshed > 0) app.log.info({ platform: client.platform, refreshed }, 'platform tokens refreshed ahead of expiry');
      }
    };
    let sweepTimer: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      void sweepTokens().catch((error: unknown) => app.log.warn({ err: error }, 'platform token sweep failed'));
      sweepTimer = setInterval(
        () => void sweepTokens().catch((error: unknown) => app.log.warn({ err: error }, 'platform token sweep failed')),
        12 * 3600_000,
      );
      sweepTimer.unref();
    });
    app.addHook('onClose', async () => {
      if (sweepTimer) clearInterval(sweepTimer);
    });

    /** The privacy settings a platform takes from this server now: TikTok only SELF_ONLY until the app is audited. */
    const privacyOptionsFor = (platform: Platform) =>
      platform === 'tiktok' && settings.tiktok && !settings.tiktok.audited
        ? (['private'] as const)
        : PLATFORM_CONSTRAINTS[platform].privacyOptions;
    /** The connections as Settings and the Publish dialog show them: what is missing, what each can post with. */
    const describedConnections = async (userId: string) => {
      const list = await connections.list(userId, offered);
      const scopes = await connections.scopes(userId);
      // Seen on this creator's last YouTube upload: YouTube locked it private (an unverified API project).
      const lastYouTube = await app.db
        .selectFrom('publications')
        .select('error')
        .where('user_id', '=', userId)
        .where('platform', '=', 'youtube')
        .where('status', '=', 'published')
        .orderBy('published_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      const lockedPrivate = lastYouTube?.error?.includes(M.youtubeLockedPrivate) ?? false;
      return list.map((connection) => {
        const problem = connection.connected ? connectionProblem(connection.platform, scopes[connection.platform] ?? '') : undefined;
        return {
          ...connection,
          ...(problem ? { problem } : {}),
          privacyOptions: [...privacyOptionsFor(connection.platform)],
          ...(connection.platform === 'youtube' && lockedPrivate ? { notice: M.youtubeUnverifiedNotice } : {}),
        };
      });
    };

    const clientFor = (platform: Platform) => {
      const client = clients[platform];
      if (!client) throw notFound(M.notConfigured(platform));
      return client;
    };
    const redirectUri = (platform: Platform) => `${app.config.publicUrl}/api/connections/${platform}/callback`;

    registerRoute(app, API.connections, async (request) => ({ connections: await describedConnections(request.user.id) }));

    // The browser that starts a connection gets a random value in an HttpOnly cookie, and the
    // callback must bring it back: otherwise anyone could send a creator a consent link of their
    // own and have the creator's channel land in their account (login CSRF). SameSite=Lax: the
    // platform's redirect back is a top-level GET, which carries it.
    const bindingCookie = (platform: Platform) => `rs_oauth_${platform}`;
    const hashBinding = (value: string) => createHash('sha256').update(value).digest('hex');
    const secureCookie = app.config.publicUrl.startsWith('https:') ? '; Secure' : '';
    const bindingFrom = (cookieHeader: string | undefined, platform: Platform): string | null => {
      for (const part of (cookieHeader ?? '').split(';')) {
        const [name, ...value] = part.trim().split('=');
        if (name === bindingCookie(platform)) return value.join('=');
      }
      return null;
    };
    const sameBrowser = (cookieHeader: string | undefined, platform: Platform, expected: string): boolean => {
      const binding = bindingFrom(cookieHeader, platform);
      if (!binding) return false;
      const given = Buffer.from(hashBinding(binding));
      return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
    };

    registerRoute(app, API.connectionStart, async (request, reply) => {
      const { platform } = request.params;
      const client = clientFor(platform);
      const state = newOAuthState();
      const verifier = client.usesPkce ? newCodeVerifier() : null;
      const binding = randomBytes(32).toString('base64url');
      await connections.saveState(state, request.user.id, platform, verifier, hashBinding(binding));
      reply.header(
        'set-cookie',
        `${bindingCookie(platform)}=${binding}; Path=/api/connections/${platform}; Max-Age=900; HttpOnly; SameSite=Lax${secureCookie}`,
      );
      return {
        url: client.authorizationUrl({
          state,
          redirectUri: redirectUri(platform),
          codeChallenge: verifier ? codeChallengeS256(verifier) : null,
        }),
      };
    });

    registerRoute(app, API.connectionCallback, async (request, reply) => {
      const { platform } = request.params;
      // A failure is named by a code only: Settings shows our own message for it, never text from the address.
      const back = (outcome: { connected: Platform } | { error: ConnectionErrorCode }) => {
        const query = new URLSearchParams(
          'connected' in outcome ? { connected: outcome.connected } : { connectionError: outcome.error, platform },
        );
        return reply.header('cache-control', 'no-store').redirect(`${SETTINGS_PATH}?${query.toString()}`, 303);
      };
      const client = clients[platform];
      if (!client) return back({ error: 'not-configured' });
      const { state, code, error } = request.query;
      const pending = state ? await connections.takeState(state, platform) : null;
      // The binding cookie is spent with the state.
      reply.header(
        'set-cookie',
        `${bindingCookie(platform)}=; Path=/api/connections/${platform}; Max-Age=0; HttpOnly; SameSite=Lax${secureCookie}`,
      );
      if (!pending) return back({ error: 'state-invalid' });
      if (!sameBrowser(request.headers.cookie, platform, pending.browserBinding)) {
        request.log.warn({ platform }, 'connection callback from a browser that did not start it');
        return back({ error: 'other-browser' });
      }
      if (error || !code) return back({ error: 'consent-denied' });
      try {
        const tokens = await client.exchangeCode({ code, redirectUri: redirectUri(platform), codeVerifier: pending.codeVerifier });
        const account = await client.account(tokens);
        await connections.save(pending.userId, platform, tokens, account);
        request.log.info({ userId: pending.userId, platform }, 'platform connected');
        return back({ connected: platform });
      } catch (caught) {
        if (!(caught instanceof PlatformError)) throw caught;
        request.log.warn({ platform, reason: caught.message, status: caught.status }, 'platform connection failed');
        // The creator hears what to do; a platform's raw answer ("HTTP 404") stays in the log.
        return back({
          error:
            caught.kind === 'transient'
              ? 'platform-unavailable'
              : caught.message === M.youtubeMissingUploadScope
                ? 'missing-upload-scope'
                : caught.message === M.noYouTubeChannel
                  ? 'no-channel'
                  : 'failed',
        });
      }
    });

    registerRoute(app, API.disconnect, async (request) => {
      const { platform } = request.params;
      const client = clientFor(platform);
      const tokens = await connections.tokens(request.user.id, platform).catch(() => null);
      if (tokens) {
        try {
          await client.revoke(tokens);
        } catch (caught) {
          // The tokens are deleted whatever the platform answers: nothing of the connection stays here.
          request.log.warn({ platform, err: caught }, 'platform did not confirm the revocation');
        }
      }
      await connections.remove(request.user.id, platform);
      return { success: true as const };
    });

    async function finishedVideo(userId: string, videoId: string) {
      const row = await findUserJob(app.db, userId, videoId);
      if (!row) throw notFound(MESSAGES.notFound);
      return row;
    }

    registerRoute(app, API.publishVideo, async (request) => {
      const userId = request.user.id;
      const row = await finishedVideo(userId, request.params.id);
      const result = parseResult(row.result);
      if (!result || !row.output_token) throw conflict(M.notFinished);
      const status = await describedConnections(userId);
      const now = new Date().toISOString();
      const entries: NewPublication[] = [];
      for (const [index, entry] of request.body.platforms.entries()) {
        const { platform } = entry;
        if (!clients[platform]) throw badRequest(M.notConfigured(platform), `platforms.${index}.platform`);
        const connection = status.find((candidate) => candidate.platform === platform);
        if (!connection?.connected) throw badRequest(M.notConnected(platform), `platforms.${index}.platform`);
        if (connection.needsReconnect) throw badRequest(M.reconnect(platform), `platforms.${index}.platform`);
        if (connection.problem) throw badRequest(connection.problem, `platforms.${index}.platform`);
        const constraints = PLATFORM_CONSTRAINTS[platform];
        const offeredPrivacy = privacyOptionsFor(platform);
        const privacy = entry.privacy ?? offeredPrivacy[0]!;
        if (!constraints.privacyOptions.includes(privacy)) throw badRequest(M.privacyUnsupported(platform), `platforms.${index}.privacy`);
        if (!offeredPrivacy.includes(privacy)) throw badRequest(M.tiktokPrivateOnly, `platforms.${index}.privacy`);
        // YouTube makes a scheduled video public at its time: unlisted or private with a time means nothing there.
        if (platform === 'youtube' && entry.publishAt && privacy !== 'public')
          throw badRequest(M.youtubeScheduledPrivacy, `platforms.${index}.privacy`);
        if (result.durationSeconds !== undefined && result.durationSeconds > constraints.maxDurationSeconds)
          throw badRequest(M.tooLong(platform, constraints.maxDurationSeconds), `platforms.${index}.platform`);
        const publishAt = entry.publishAt ? new Date(entry.publishAt).toISOString() : null;
        entries.push({
          platform,
          // The post kit is the default text; a video made before post kits falls back to its title.
          title: entry.title ?? result.post?.title ?? result.title ?? 'Untitled video',
          description: entry.description ?? result.post?.description ?? '',
          hashtags: entry.hashtags ?? result.post?.hashtags ?? [],
          privacy,
          publishAt,
          // YouTube schedules on its side (uploaded now, private until publishAt); the others go at the time.
          runAt: publishAt && platform !== 'youtube' ? publishAt : now,
          ...(platform === 'tiktok'
            ? {
                remoteState: JSON.stringify({
                  interactions: {
                    comment: entry.allowComments ?? false,
                    duet: entry.allowDuet ?? false,
                    stitch: entry.allowStitch ?? false,
                  },
                }),
              }
            : {}),
        });
      }
      const inserted = await insertPublications(app.db, userId, row.id, entries);
      if ('busy' in inserted) throw conflict(M.alreadyPublishing(inserted.busy));
      const publications = inserted.rows.map(toPublication);
      for (const publication of publications) events.emit('publication', publication, userId);
      runner.kick();
      request.log.info({ videoId: row.id, platforms: entries.map((entry) => entry.platform) }, 'publications queued');
      return { publications };
    });

    registerRoute(app, API.videoPublications, async (request) => {
      const row = await finishedVideo(request.user.id, request.params.id);
      return { publications: (await listVideoPublications(app.db, request.user.id, row.id)).map(toPublication) };
    });

    registerRoute(app, API.publications, async (request) => ({
      publications: (await listUserPublications(app.db, request.user.id)).map(toPublication),
    }));

    registerRoute(app, API.cancelPublication, async (request) => {
      const existing = await findPublication(app.db, request.params.id);
      if (!existing || existing.user_id !== request.user.id) throw notFound(MESSAGES.notFound);
      let cancelled = await cancelQueuedPublication(app.db, request.user.id, existing.id);
      const held =
        !cancelled &&
        existing.platform === 'youtube' &&
        existing.status === 'published' &&
        existing.publish_at !== null &&
        existing.remote_id !== null;
      if (held) {
        // Uploaded and private until its time: kept private (the default) or deleted on YouTube, until then.
        if (Date.parse(existing.publish_at!) <= Date.now()) throw conflict(M.youtubeCancelTooLate);
        const mode = request.query.youtube ?? 'keep';
        const client = clientFor('youtube');
        const publisher = publishers.youtube;
        if (!publisher?.cancelScheduled) throw notFound(M.notConfigured('youtube'));
        try {
          const tokens = await connections.fresh(client, request.user.id);
          if (!tokens) throw badRequest(M.notConnected('youtube'));
          await publisher.cancelScheduled(existing.remote_id!, mode, tokens.accessToken);
        } catch (caught) {
          if (!(caught instanceof PlatformError)) throw caught;
          request.log.warn({ publicationId: existing.id, reason: caught.message }, 'scheduled YouTube video not cancelled');
          if (caught.kind === 'auth') throw conflict(M.reconnect('youtube'));
          throw conflict(caught.kind === 'transient' ? M.platformUnavailable('youtube') : caught.message);
        }
        cancelled = await cancelHeldPublication(
          app.db,
          request.user.id,
          existing.id,
          mode === 'delete' ? M.youtubeDeleted : M.youtubeKeptPrivate,
          mode === 'keep',
        );
      }
      if (!cancelled) throw conflict(M.onlyScheduledCancel);
      const publication = toPublication(cancelled);
      events.emit('publication', publication, request.user.id);
      return { publication };
    });
  },
  { name: 'publishing', fastify: '5.x', dependencies: ['config', 'database', 'storage', 'auth', 'error-handler', 'jobs'] },
);
