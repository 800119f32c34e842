import {
  WEBHOOK_SIGNATURE_HEADER,
  type JobCompletedEvent,
  type JobFailedEvent,
  type WebhookEvent,
  type WebhookEventType,
} from '@reelsmith/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { createApiKeyCipher, type ApiKeyCipher } from '../auth/api-keys.js';
import type { Database } from '../db/schema.js';
import type { JobEventBus } from '../jobs/job-events.js';
import { refuseUnlessPublic } from './webhook-address.js';
import { postWebhook, type SendResult } from './webhook-sender.js';
import { signWebhookBody } from './webhook-signature.js';

/**
 * Delay before each retry: 1 min, 5 min, 30 min, 2 h, 6 h, 15 h → 7 tries over about a day,
 * then the delivery is marked failed.
 */
export const DEFAULT_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 54_000_000];
const POLL_INTERVAL_MS = 2_000;
/** How long a sender owns a claimed delivery; beyond the request timeout, so a crash frees it. */
const CLAIM_MS = 60_000;
const BATCH = 20;

export interface WebhookDispatcherOptions {
  db: Kysely<Database>;
  /** The webhook secrets are sealed under a key derived from JWT_SECRET, like the studio's API key. */
  jwtSecret: string;
  allowPrivate: boolean;
  log: FastifyBaseLogger;
  retryDelaysMs?: number[];
  pollIntervalMs?: number;
  /** Replaces the HTTP POST (unit tests). */
  send?: (url: string, body: string, headers: Record<string, string>) => Promise<SendResult>;
}

export function webhookSecretCipher(jwtSecret: string): ApiKeyCipher {
  return createApiKeyCipher(`${jwtSecret}:webhooks`);
}

/**
 * Turns job outcomes into webhook deliveries stored in the database and sends the ones that are
 * due, retrying with backoff until a 2xx. Runs in every process that runs or reports jobs (API
 * server, scale-mode workers); the unique (webhook, event) pair and the claim column keep each
 * delivery enqueued once and sent by one process at a time.
 */
export class WebhookDispatcher {
  private readonly cipher: ApiKeyCipher;
  private readonly retryDelaysMs: number[];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.cipher = webhookSecretCipher(options.jwtSecret);
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  /** Enqueues a delivery for every job outcome `events` reports. */
  listen(events: JobEventBus): void {
    events.on('job_completed', (event, userId) => void this.enqueueCompleted(event, userId).catch((error: unknown) => this.logError(error)));
    events.on('job_failed', (event, userId) => void this.enqueueFailed(event, userId).catch((error: unknown) => this.logError(error)));
  }

  private logError(error: unknown): void {
    this.options.log.error({ err: error }, 'webhook enqueue failed');
  }

  enqueueCompleted(event: JobCompletedEvent, userId: string): Promise<void> {
    const { videoUrl, posterUrl, title, durationSeconds, source } = event.result;
    return this.enqueue(userId, 'video.completed', { jobId: event.jobId, status: 'completed', videoUrl, posterUrl, title, durationSeconds, ...(source ? { source } : {}) });
  }

  enqueueFailed(event: JobFailedEvent, userId: string): Promise<void> {
    return this.enqueue(userId, 'video.failed', { jobId: event.jobId, status: 'failed', error: event.error });
  }

  async enqueue(userId: string, type: WebhookEventType, data: WebhookEvent['data']): Promise<void> {
    const { db } = this.options;
    const hooks = await db.selectFrom('webhooks').select(['id', 'events']).where('user_id', '=', userId).where('deleted_at', 'is', null).execute();
    const targets = hooks.filter((hook) => (JSON.parse(hook.events) as string[]).includes(type));
    if (targets.length === 0) return;
    const now = new Date().toISOString();
    // One event per job outcome: the same id whichever process reports it first.
    const eventId = `evt_${type.replace('.', '_')}_${data.jobId}`;
    const body: WebhookEvent = { id: eventId, type, createdAt: now, data };
    const payload = JSON.stringify(body);
    await db
      .insertInto('webhook_deliveries')
      .values(
        targets.map((hook) => ({
          id: randomUUID(),
          webhook_id: hook.id,
          event_id: eventId,
          type,
          payload,
          status: 'pending' as const,
          attempt_count: 0,
          next_attempt_at: now,
          locked_until: null,
          created_at: now,
          delivered_at: null,
        })),
      )
      .onConflict((conflict) => conflict.columns(['webhook_id', 'event_id']).doNothing())
      .execute();
    this.kick();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Sends what is due now rather than at the next poll. */
  kick(): void {
    if (!this.stopped) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.running) {
        this.schedule(this.options.pollIntervalMs ?? POLL_INTERVAL_MS);
        return;
      }
      this.running = this.runDue()
        .then(() => undefined)
        .catch((error: unknown) => this.options.log.error({ err: error }, 'webhook delivery round failed'))
        .finally(() => {
          this.running = null;
          if (!this.stopped && !this.timer) this.schedule(this.options.pollIntervalMs ?? POLL_INTERVAL_MS);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** Sends every due delivery once; returns how many were attempted. */
  async runDue(): Promise<number> {
    const { db } = this.options;
    const now = new Date();
    const nowIso = now.toISOString();
    const due = await db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .select([
        'webhook_deliveries.id as id',
        'webhook_deliveries.payload as payload',
        'webhook_deliveries.attempt_count as attempt_count',
        'webhooks.url as url',
        'webhooks.secret_encrypted as secret_encrypted',
        'webhooks.deleted_at as deleted_at',
      ])
      .where('webhook_deliveries.status', '=', 'pending')
      .where('webhook_deliveries.next_attempt_at', '<=', nowIso)
      .where((eb) => eb.or([eb('webhook_deliveries.locked_until', 'is', null), eb('webhook_deliveries.locked_until', '<', nowIso)]))
      .orderBy('webhook_deliveries.next_attempt_at', 'asc')
      .limit(BATCH)
      .execute();
    let attempted = 0;
    for (const delivery of due) {
      const claim = await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: new Date(now.getTime() + CLAIM_MS).toISOString() })
        .where('id', '=', delivery.id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) === 0) continue;
      attempted += 1;
      await this.attempt(delivery);
    }
    return attempted;
  }

  private async attempt(delivery: { id: string; payload: string; attempt_count: number; url: string; secret_encrypted: string; deleted_at: string | null }): Promise<void> {
    const { db, log } = this.options;
    const attempt = delivery.attempt_count + 1;
    const at = new Date();
    let result: SendResult;
    const secret = this.cipher.decrypt(delivery.secret_encrypted);
    if (delivery.deleted_at) {
      result = { statusCode: null, error: 'webhook deleted', durationMs: 0 };
    } else if (secret === null) {
      result = { statusCode: null, error: 'signing secret unreadable (JWT_SECRET changed); delete and re-create the webhook', durationMs: 0 };
    } else {
      const refusal = await refuseUnlessPublic(delivery.url, this.options.allowPrivate);
      if (refusal) {
        result = { statusCode: null, error: refusal, durationMs: 0 };
      } else {
        const headers = { [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(secret, delivery.payload, Math.floor(Date.now() / 1000)) };
        result = await (this.options.send ?? ((url, body, h) => postWebhook(url, body, h, this.options.allowPrivate)))(delivery.url, delivery.payload, headers);
      }
    }
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const finalFailure = !delivered && (delivery.deleted_at !== null || attempt > this.retryDelaysMs.length);
    const nextAttemptAt = delivered || finalFailure ? null : new Date(Date.now() + this.retryDelaysMs[attempt - 1]!).toISOString();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: randomUUID(),
          delivery_id: delivery.id,
          attempt,
          at: at.toISOString(),
          status_code: result.statusCode,
          error: result.error?.slice(0, 500) ?? (delivered ? null : `HTTP ${result.statusCode}`),
          duration_ms: result.durationMs,
        })
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({
          attempt_count: attempt,
          status: delivered ? 'delivered' : finalFailure ? 'failed' : 'pending',
          next_attempt_at: nextAttemptAt,
          locked_until: null,
          delivered_at: delivered ? new Date().toISOString() : null,
        })
        .where('id', '=', delivery.id)
        .execute();
    });
    log.info({ deliveryId: delivery.id, attempt, statusCode: result.statusCode, delivered }, 'webhook attempt');
  }
}
