import { PUBLISHING_MESSAGES, type Platform, type Publication } from '@reelsmith/contracts';
import { buildCaptionCues, formatSrt, type CaptionTrack } from '@reelsmith/pipeline';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Database, PublicationRow } from '../db/schema.js';
import { captionTrackFilename, outputKey } from '../output/output-files.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import { parseResult } from '../video-jobs/video-job-view.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import type { ConnectionStore } from './connection-store.js';
import type { OAuthClient } from './oauth-clients.js';
import { PlatformError, runSignal } from './platform-http.js';
import { claimDuePublications, nextRunAt, toPublication, updateClaimed } from './publication-store.js';
import type { PublishContext, Publisher, PublishInput, PublishOutcome } from './publisher.js';

type PublicationWebhook = 'publication.published' | 'publication.failed';
/** A write under this run's claim; `webhook`: the final state's event, whose deliveries commit with it. */
type WriteClaimed = (changes: Parameters<typeof updateClaimed>[3], webhook?: PublicationWebhook) => Promise<PublicationRow | null>;

/** Waits after a network error or a 5xx before the next try: 30 s, 2 min, 10 min, 30 min, 1 h; then it failed. */
export const DEFAULT_PUBLISH_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000];

export interface PublicationTimings {
  /** How often the queue looks for due publications besides waking at the next scheduled one. */
  pollIntervalMs?: number;
  retryDelaysMs?: number[];
  /** How long a run holds a publication before another process may resume it (renewed while it runs). */
  claimMs?: number;
  /** Between status polls of the platform's processing (TikTok, Instagram). */
  statusPollMs?: number;
  maxStatusPolls?: number;
}

const DEFAULTS = { pollIntervalMs: 15_000, claimMs: 120_000, statusPollMs: 5_000, maxStatusPolls: 120 };
/** Publications run at once per process: uploads are network-bound, a few overlap well. */
const CONCURRENCY = 3;

/** A publication's change, for the sockets (realtime-plugin.ts) of its creator. */
export class PublicationEvents extends EventEmitter<{ publication: [Publication, string] }> {}

/** The message a creator sees for an error that is not the platform's: never the internals. */
export const PUBLISH_INTERNAL_ERROR = 'Publishing stopped on our side; it will be tried again.';

export interface PublicationRunnerOptions {
  db: Kysely<Database>;
  connections: ConnectionStore;
  clients: Partial<Record<Platform, OAuthClient>>;
  publishers: Partial<Record<Platform, Publisher>>;
  storage: ObjectStorage;
  publicUrl: string;
  webhooks: WebhookDispatcher;
  events: PublicationEvents;
  log: FastifyBaseLogger;
  timings?: PublicationTimings;
  /** Hears each attempt to publish on a platform, its seconds and why it failed (the metrics' publishing calls). */
  onPublishCall?: (call: PublishCall) => void;
}

/** One attempt to publish on a platform (upload and the platform's processing included). */
export interface PublishCall {
  platform: Platform;
  seconds: number;
  error?: 'auth' | 'rate_limited' | 'unavailable' | 'rejected' | 'aborted' | 'other';
}

/** The provider-call code of a failed publish: the platform's own verdict where it gave one. */
export function publishErrorCode(error: unknown, signal?: AbortSignal): NonNullable<PublishCall['error']> {
  if (signal?.aborted) return 'aborted';
  if (!(error instanceof PlatformError)) return 'other';
  if (error.kind === 'auth') return 'auth';
  if (error.kind === 'rejected') return 'rejected';
  return error.status === 429 || error.retryAt ? 'rate_limited' : 'unavailable';
}

/**
 * The publishing queue. The publications table is the queue, as video_jobs is for the embedded video
 * queue: a due row is claimed with a conditional update, so with one API process or many (QUEUE_BACKEND
 * embedded or bullmq alike, all sharing the database) each publication runs once, and a scheduled one
 * survives restarts because nothing about it lives in memory. The runner wakes at the next scheduled
 * time and polls besides, so a post goes out within seconds of its time.
 */
export class PublicationRunner {
  private readonly timings: Required<PublicationTimings>;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void>; userId: string }>();
  private pollTimer: NodeJS.Timeout | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private tickAgain = false;
  private stopped = true;

  constructor(private readonly options: PublicationRunnerOptions) {
    this.timings = { ...DEFAULTS, retryDelaysMs: DEFAULT_PUBLISH_RETRY_DELAYS_MS, ...options.timings };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.pollTimer = setInterval(() => this.kick(), this.timings.pollIntervalMs);
    this.pollTimer.unref();
    this.kick();
  }

  /** Stops taking publications and interrupts running ones: their claims lapse and the next start resumes them. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.pollTimer = this.wakeTimer = null;
    await this.ticking;
    const running = [...this.running.values()];
    for (const run of running) run.controller.abort(new Error('server stopping'));
    await Promise.allSettled(running.map((run) => run.done));
  }

  /** Stops this process's runs of one account's publications (suspended: their rows are cancelled already). */
  async stopUser(userId: string): Promise<void> {
    const runs = [...this.running.values()].filter((run) => run.userId === userId);
    for (const run of runs) run.controller.abort(new Error('account suspended'));
    await Promise.allSettled(runs.map((run) => run.done));
  }

  /** Looks for due publications now (a new one, a restart). */
  kick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = this.tick()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'could not take due publications'))
      .finally(() => {
        this.ticking = null;
        if (this.tickAgain) {
          this.tickAgain = false;
          this.kick();
        }
      });
  }

  private async tick(): Promise<void> {
    const rows = await claimDuePublications(this.options.db, CONCURRENCY - this.running.size, this.timings.claimMs);
    for (const row of rows) {
      const controller = new AbortController();
      const done = this.run(row, row.claimed_until!, controller.signal)
        .catch((error: unknown) => this.options.log.error({ err: error, publicationId: row.id }, 'publication run crashed'))
        .finally(() => {
          this.running.delete(row.id);
          this.kick();
        });
      this.running.set(row.id, { controller, done, userId: row.user_id });
    }
    await this.scheduleWake();
  }

  /** A timer for the next scheduled publication, when it comes before the next poll. */
  private async scheduleWake(): Promise<void> {
    const next = await nextRunAt(this.options.db);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
    if (!next || this.stopped) return;
    const delay = Math.max(0, Date.parse(next) - Date.now()) + 50;
    if (delay > this.timings.pollIntervalMs) return;
    this.wakeTimer = setTimeout(() => this.kick(), delay);
    this.wakeTimer.unref();
  }

  private emit(row: PublicationRow | null): void {
    if (row) this.options.events.emit('publication', toPublication(row), row.user_id);
  }

  private async run(row: PublicationRow, firstClaim: string, signal: AbortSignal): Promise<void> {
    const { db, log } = this.options;
    const platform = row.platform as Platform;
    let claim = firstClaim;
    // Renewed while the run lasts, so a long upload keeps its claim and a crashed process's lapses.
    let renewing: Promise<void> = Promise.resolve();
    const renew = setInterval(() => {
      renewing = renewing
        .then(async () => {
          const next = new Date(Date.now() + this.timings.claimMs).toISOString();
          const renewed = await updateClaimed(db, row.id, claim, { claimed_until: next });
          if (renewed) claim = next;
        })
        // A missed renewal is retried at the next tick; the claim still holds until it lapses.
        .catch((error: unknown) => log.warn({ err: error, publicationId: row.id }, 'could not renew a publication claim'));
    }, this.timings.claimMs / 3);
    renew.unref();
    const write: WriteClaimed = async (changes, webhook) => {
      await renewing;
      // A final state's webhook deliveries are written with it (the webhook outbox): a crash after the commit loses none.
      const updated = webhook
        ? await db.transaction().execute(async (trx) => {
            const changed = await updateClaimed(trx, row.id, claim, changes);
            if (changed) await this.recordWebhook(trx, changed, webhook);
            return changed;
          })
        : await updateClaimed(db, row.id, claim, changes);
      if (updated && changes.claimed_until) claim = changes.claimed_until;
      if (updated && webhook) this.options.webhooks.kick();
      this.emit(updated);
      return updated;
    };
    const dir = await mkdtemp(join(tmpdir(), 'reelsmith-publish-'));
    try {
      const client = this.options.clients[platform];
      const publisher = this.options.publishers[platform];
      if (!client || !publisher) return void (await this.fail(write, row, PUBLISHING_MESSAGES.notConfigured(platform)));
      const input = await this.prepare(row, dir);
      if (typeof input === 'string') return void (await this.fail(write, row, input));

      let forceRefresh = false;
      const accessToken = async () => {
        const tokens = await this.options.connections.fresh(client, row.user_id, { force: forceRefresh });
        forceRefresh = false;
        if (!tokens) throw new PlatformError(platform, 'rejected', PUBLISHING_MESSAGES.notConnected(platform));
        return tokens.accessToken;
      };
      const account = await this.options.connections.tokens(row.user_id, platform).catch(() => null);
      if (!account) return void (await this.fail(write, row, PUBLISHING_MESSAGES.notConnected(platform)));
      let remoteState = row.remote_state;
      const context: PublishContext = {
        accessToken,
        get remoteState() {
          return remoteState;
        },
        saveRemoteState: async (state) => {
          remoteState = state;
          await write({ remote_state: state });
        },
        report: async (status, progress) => {
          if (signal.aborted) throw signal.reason as Error;
          await write({ status, progress: Math.max(0, Math.min(100, Math.round(progress))) });
        },
        sleep: (ms) =>
          new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, ms);
            signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
          }),
        pollIntervalMs: this.timings.statusPollMs,
        maxPolls: this.timings.maxStatusPolls,
      };
      const publishInput = { ...input, account: { id: account.accountId, name: account.accountName } };
      await write({ status: 'uploading', attempts: Number(row.attempts) + 1, error: null });
      try {
        const outcome = await runSignal.run(signal, () =>
          this.publishOnce(platform, publisher, publishInput, context, () => (forceRefresh = true), signal),
        );
        const now = new Date().toISOString();
        const published = await write(
          {
            status: 'published',
            progress: 100,
            url: outcome.url,
            remote_id: outcome.remoteId,
            published_at: now,
            active_key: null,
            claimed_until: null,
            // A published row's error column holds its warning (toPublication shows it as such).
            error: outcome.warning ?? null,
          },
          'publication.published',
        );
        if (published) log.info({ publicationId: row.id, platform }, 'video published');
      } catch (error) {
        if (signal.aborted) {
          // Stopping: the claim is let go (the status stays), so the next start resumes it from its saved state.
          await write({ claimed_until: null });
          return;
        }
        await this.handleFailure(write, row, error);
      }
    } finally {
      clearInterval(renew);
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** One try; a 401 gets one refreshed token and one more go (the publisher resumes from its saved state). */
  private async publishOnce(
    platform: Platform,
    publisher: Publisher,
    input: PublishInput,
    context: PublishContext,
    forceRefresh: () => void,
    signal: AbortSignal,
  ): Promise<PublishOutcome> {
    const attempt = () => this.timedPublish(platform, () => publisher.publish(input, context), signal);
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof PlatformError) || error.kind !== 'auth') throw error;
      forceRefresh();
      return await attempt();
    }
  }

  /** One publish call, reported to onPublishCall (whose failure never touches the publication). */
  private async timedPublish(platform: Platform, publish: () => Promise<PublishOutcome>, signal: AbortSignal): Promise<PublishOutcome> {
    const started = performance.now();
    const report = (error?: PublishCall['error']) => {
      try {
        this.options.onPublishCall?.({ platform, seconds: (performance.now() - started) / 1000, ...(error ? { error } : {}) });
      } catch {
        // A metric is never worth a failed publication.
      }
    };
    try {
      const outcome = await publish();
      report();
      return outcome;
    } catch (error) {
      report(publishErrorCode(error, signal));
      throw error;
    }
  }

  private async handleFailure(write: WriteClaimed, row: PublicationRow, error: unknown) {
    const platform = row.platform as Platform;
    const attempts = Number(row.attempts) + 1;
    if (error instanceof PlatformError && error.kind === 'auth') {
      await this.options.connections.markReconnect(row.user_id, platform);
      return this.fail(write, row, PUBLISHING_MESSAGES.reconnect(platform));
    }
    if (error instanceof PlatformError && error.kind === 'rejected') return this.fail(write, row, error.message);
    if (error instanceof PlatformError && error.retryAt) {
      // A known time (YouTube's quota day): waited for whatever the count of tries, not counted as one.
      this.options.log.warn({ publicationId: row.id, platform, retryAt: error.retryAt }, 'publication waits for the platform');
      return write({ status: 'queued', run_at: error.retryAt, claimed_until: null, error: error.message, attempts: Number(row.attempts) });
    }
    const message = error instanceof PlatformError ? error.message : PUBLISH_INTERNAL_ERROR;
    if (!(error instanceof PlatformError)) this.options.log.error({ err: error, publicationId: row.id }, 'publication run failed');
    const delay = this.timings.retryDelaysMs[attempts - 1];
    if (delay === undefined)
      return this.fail(write, row, error instanceof PlatformError ? error.message : PUBLISHING_MESSAGES.platformUnavailable(platform));
    this.options.log.warn({ publicationId: row.id, platform, attempts, delayMs: delay, reason: message }, 'publication will be retried');
    await write({ status: 'queued', run_at: new Date(Date.now() + delay).toISOString(), claimed_until: null, error: message });
  }

  private async fail(write: WriteClaimed, row: PublicationRow, reason: string) {
    await write({ status: 'failed', error: reason, active_key: null, claimed_until: null }, 'publication.failed');
    this.options.log.info({ publicationId: row.id, platform: row.platform, reason }, 'publication failed');
  }

  private async recordWebhook(trx: Transaction<Database>, row: PublicationRow, type: PublicationWebhook): Promise<void> {
    await this.options.webhooks.outbox.record(
      trx,
      row.user_id,
      type,
      {
        jobId: row.video_id,
        status: type === 'publication.published' ? 'published' : 'failed',
        publication: {
          id: row.id,
          platform: row.platform,
          ...(row.url ? { url: row.url } : {}),
          ...(row.error && type === 'publication.failed' ? { error: row.error } : {}),
        },
      },
      `evt_${type.replace('.', '_')}_${row.id}_a${row.attempts}`,
    );
  }

  /** Local copies of the video, its poster and its captions; a string when the video cannot be published. */
  private async prepare(row: PublicationRow, dir: string): Promise<Omit<PublishInput, 'account'> | string> {
    const { db, storage } = this.options;
    const video = await db
      .selectFrom('video_jobs')
      .select(['result', 'output_token', 'params'])
      .where('id', '=', row.video_id)
      .executeTakeFirst();
    const result = parseResult(video?.result ?? null);
    if (!video || !result || !video.output_token) return PUBLISHING_MESSAGES.notFinished;
    const token = video.output_token;
    const videoFile = join(dir, 'video.mp4');
    await storage.download(outputKey(token, result.filename), videoFile);
    let posterFile: string | null = null;
    if (result.posterUrl) {
      const posterKey = outputKey(token, basename(result.posterUrl));
      if (await storage.exists(posterKey)) {
        posterFile = join(dir, 'poster.jpg');
        await storage.download(posterKey, posterFile);
      }
    }
    let captionsSrt: string | null = null;
    let language = 'en';
    try {
      const params = JSON.parse(video.params) as { language?: unknown };
      if (typeof params.language === 'string') language = params.language;
    } catch {
      // The narration's language stays English.
    }
    const trackKey = outputKey(token, captionTrackFilename(result.filename));
    if (await storage.exists(trackKey)) {
      const trackFile = join(dir, 'track.json');
      await storage.download(trackKey, trackFile);
      const track = JSON.parse(await readFile(trackFile, 'utf8')) as CaptionTrack;
      if (Array.isArray(track.words) && Array.isArray(track.cuts)) {
        captionsSrt = formatSrt(buildCaptionCues(track));
        if (typeof track.language === 'string') language = track.language;
      }
    }
    return {
      platform: row.platform as Platform,
      title: row.title,
      description: row.description,
      hashtags: toPublication(row).hashtags,
      privacy: toPublication(row).privacy,
      publishAt: row.publish_at,
      videoFile,
      videoBytes: (await stat(videoFile)).size,
      durationSeconds: result.durationSeconds ?? null,
      posterFile,
      captionsSrt,
      language,
      publicVideoUrl: new URL(result.videoUrl, `${this.options.publicUrl.replace(/\/+$/, '')}/`).toString(),
    };
  }
}
