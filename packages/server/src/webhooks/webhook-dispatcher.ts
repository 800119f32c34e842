import { WEBHOOK_SIGNATURE_HEADER, type WebhookEvent } from '@reelsmith/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { webhookSecretCipher, type ApiKeyCipher } from '../auth/api-keys.js';
import type { Database } from '../db/schema.js';
import { refuseUnlessPublic } from '../outbound/webhook-address.js';
import { postWebhook, type SendResult } from './webhook-sender.js';
import { signWebhookBody } from './webhook-signature.js';
import { WebhookOutbox } from './webhook-outbox.js';

/**
 * Delay before each retry: 1 min, 5 min, 30 min, 2 h, 6 h, 15 h → 7 tries over about a day,
 * then the delivery is marked failed.
 */
export const DEFAULT_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 54_000_000];
const POLL_INTERVAL_MS = 2_000;
/** How long a sender owns a claimed delivery; beyond the request timeout, so a crash frees it. */
const CLAIM_MS = 60_000;
/** Due deliveries read per look; tenants already at their limit are left out of the query. */
const BATCH = 50;
/** Deliveries in flight at once in this process, all tenants together. */
export const DEFAULT_DELIVERY_CONCURRENCY = 16;
/**
 * Deliveries in flight at once per tenant (user): one tenant's receivers that never answer hold at
 * most this many slots, so every other tenant's deliveries keep going out at once.
 */
export const DEFAULT_TENANT_CONCURRENCY = 2;
/** Delivery attempts per tenant per minute; the rest stay pending and go out in the next minutes. */
export const DEFAULT_ATTEMPTS_PER_MINUTE = 60;

export interface WebhookDispatcherOptions {
  db: Kysely<Database>;
  /** The encryption key (ENCRYPTION_KEY / ENCRYPTION_KEY_FILE) the webhook secrets are sealed under, like the studio's API key. */
  encryptionKey: string;
  allowPrivate: boolean;
  log: FastifyBaseLogger;
  /** PUBLIC_URL: relative video and poster paths in payloads are made absolute against it. */
  publicUrl?: string;
  retryDelaysMs?: number[];
  pollIntervalMs?: number;
  concurrency?: number;
  tenantConcurrency?: number;
  attemptsPerMinute?: number;
  /** Replaces the HTTP POST (unit tests). */
  send?: (url: string, body: string, headers: Record<string, string>) => Promise<SendResult>;
}

/** What tests may change: the retry schedule, the poll interval and the delivery limits. */
export type WebhookTimings = Partial<
  Pick<WebhookDispatcherOptions, 'retryDelaysMs' | 'pollIntervalMs' | 'concurrency' | 'tenantConcurrency' | 'attemptsPerMinute'>
>;

interface DueDelivery {
  id: string;
  payload: string;
  attempt_count: number;
  url: string;
  secret_encrypted: string;
  deleted_at: string | null;
  user_id: string;
}

/**
 * No earlier delivery to the same endpoint is still pending (waiting for a retry, or in flight):
 * each endpoint receives its events in the order they were written, one at a time. A delivery that
 * keeps failing holds the ones after it until it is delivered or given up (marked failed).
 */
const FIRST_PENDING_OF_ITS_ENDPOINT = sql<boolean>`not exists (
  select 1 from webhook_deliveries as earlier
  where earlier.webhook_id = webhook_deliveries.webhook_id
    and earlier.status = 'pending'
    and (earlier.created_at < webhook_deliveries.created_at
      or (earlier.created_at = webhook_deliveries.created_at and earlier.id < webhook_deliveries.id)))`;

/**
 * Sends the webhook outbox (`webhook_deliveries`, written by state changes in their own transaction,
 * see webhook-outbox.ts): the deliveries that are due, at least once, in order per endpoint, retrying
 * with backoff until a 2xx. Runs in every process that runs or reports jobs (API server, scale-mode
 * workers); a delivery is claimed by one atomic conditional UPDATE (a lease in `locked_until`, which
 * lapses if its process dies), so several processes never send it at once.
 */
export class WebhookDispatcher {
  private readonly cipher: ApiKeyCipher;
  private readonly retryDelaysMs: number[];
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  /** Attempts under way in this process, by delivery id, with their tenant. */
  private readonly inFlight = new Map<string, { userId: string; done: Promise<void> }>();
  private pumping: Promise<number> | null = null;
  private pumpAgain = false;

  /** Where state changes write their deliveries, in their own transaction. */
  readonly outbox: WebhookOutbox;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.outbox = new WebhookOutbox(options.publicUrl);
    this.cipher = webhookSecretCipher(options.encryptionKey);
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  /**
   * Writes an event's deliveries outside any state change and sends them now (a test's event, or a
   * caller with nothing to commit alongside). A state change writes them through `outbox` in its own
   * transaction instead, then calls `kick()` once committed.
   */
  async enqueue(userId: string, type: WebhookEvent['type'], data: WebhookEvent['data'], eventId?: string): Promise<void> {
    await this.outbox.record(this.options.db, userId, type, data, eventId);
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
    await this.pumping;
    await Promise.all([...this.inFlight.values()].map((entry) => entry.done));
  }

  /** Sends what is due now rather than at the next poll. */
  kick(): void {
    if (!this.stopped) void this.pump();
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.pump().finally(() => {
        if (!this.stopped && !this.timer) this.schedule(this.options.pollIntervalMs ?? POLL_INTERVAL_MS);
      });
    }, delayMs);
    this.timer.unref();
  }

  /**
   * Starts every due delivery the limits allow, without waiting for them: each one that ends
   * starts the next. Returns how many were started. One look at a time; a call meanwhile asks for
   * another look once this one ends.
   */
  private pump(): Promise<number> {
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      let started = 0;
      do {
        this.pumpAgain = false;
        started += await this.startDue();
      } while (this.pumpAgain && !this.stopped);
      return started;
    })()
      .catch((error: unknown) => {
        this.options.log.error({ err: error }, 'webhook delivery round failed');
        return 0;
      })
      .finally(() => {
        this.pumping = null;
      });
    return this.pumping;
  }

  /** Sends every due delivery the limits allow and waits for those attempts; returns how many were attempted. */
  async runDue(): Promise<number> {
    const before = new Set(this.inFlight.keys());
    const started = await this.pump();
    await Promise.all([...this.inFlight.entries()].filter(([id]) => !before.has(id)).map(([, entry]) => entry.done));
    return started;
  }

  private inFlightOf(userId: string): number {
    let count = 0;
    for (const entry of this.inFlight.values()) if (entry.userId === userId) count += 1;
    return count;
  }

  /** Attempts each tenant started in the last minute (from the attempt log), by user id. */
  private async attemptsThisMinute(now: Date): Promise<Map<string, number>> {
    const rows = await this.options.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .select(['webhooks.user_id as user_id', (eb) => eb.fn.countAll<number | string | bigint>().as('attempts')])
      .where('webhook_attempts.at', '>', new Date(now.getTime() - 60_000).toISOString())
      .groupBy('webhooks.user_id')
      .execute();
    return new Map(rows.map((row) => [row.user_id, Number(row.attempts)]));
  }

  private async startDue(): Promise<number> {
    const { db } = this.options;
    const concurrency = this.options.concurrency ?? DEFAULT_DELIVERY_CONCURRENCY;
    const tenantLimit = this.options.tenantConcurrency ?? DEFAULT_TENANT_CONCURRENCY;
    const perMinute = this.options.attemptsPerMinute ?? DEFAULT_ATTEMPTS_PER_MINUTE;
    if (this.inFlight.size >= concurrency) return 0;
    const now = new Date();
    const nowIso = now.toISOString();
    // Counted before the log is read: an attempt that ends in between is counted twice (one fewer goes
    // out until the next pump), never missed. Live in-flight counts would miss the ones that end while
    // this loop awaits its claims, and let a tenant past its allowance.
    const inFlightAtStart = new Map<string, number>();
    for (const entry of this.inFlight.values()) inFlightAtStart.set(entry.userId, (inFlightAtStart.get(entry.userId) ?? 0) + 1);
    const attempts = await this.attemptsThisMinute(now);
    const startedNow = new Map<string, number>();
    const thisMinute = (userId: string) => (attempts.get(userId) ?? 0) + (inFlightAtStart.get(userId) ?? 0) + (startedNow.get(userId) ?? 0);
    const busy = new Set<string>();
    for (const userId of new Set([...attempts.keys(), ...[...this.inFlight.values()].map((entry) => entry.userId)])) {
      if (this.inFlightOf(userId) >= tenantLimit || thisMinute(userId) >= perMinute) busy.add(userId);
    }
    let query = db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .select([
        'webhook_deliveries.id as id',
        'webhook_deliveries.payload as payload',
        'webhook_deliveries.attempt_count as attempt_count',
        'webhooks.url as url',
        'webhooks.secret_encrypted as secret_encrypted',
        'webhooks.deleted_at as deleted_at',
        'webhooks.user_id as user_id',
      ])
      .where('webhook_deliveries.status', '=', 'pending')
      .where('webhook_deliveries.next_attempt_at', '<=', nowIso)
      .where((eb) => eb.or([eb('webhook_deliveries.locked_until', 'is', null), eb('webhook_deliveries.locked_until', '<', nowIso)]))
      .where(FIRST_PENDING_OF_ITS_ENDPOINT);
    // A tenant with a backlog never fills the look: only tenants that may send now are read.
    if (busy.size > 0) query = query.where('webhooks.user_id', 'not in', [...busy]);
    const due = await query
      .orderBy('webhook_deliveries.next_attempt_at', 'asc')
      .orderBy('webhook_deliveries.created_at', 'asc')
      .limit(BATCH)
      .execute();
    let started = 0;
    for (const delivery of due) {
      if (this.inFlight.size >= concurrency) break;
      if (this.inFlight.has(delivery.id) || this.inFlightOf(delivery.user_id) >= tenantLimit || thisMinute(delivery.user_id) >= perMinute)
        continue;
      const claim = await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: new Date(now.getTime() + CLAIM_MS).toISOString() })
        .where('id', '=', delivery.id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
        // Checked again in the claim: an earlier delivery written since the look holds this one back.
        .where(FIRST_PENDING_OF_ITS_ENDPOINT)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) === 0) continue;
      started += 1;
      startedNow.set(delivery.user_id, (startedNow.get(delivery.user_id) ?? 0) + 1);
      const done = this.attempt(delivery)
        .catch((error: unknown) => this.options.log.error({ err: error, deliveryId: delivery.id }, 'webhook attempt failed'))
        .finally(() => {
          this.inFlight.delete(delivery.id);
          // A freed slot: the tenant's next delivery (or anyone's) goes out now, not at the next poll.
          if (!this.stopped) void this.pump();
        });
      this.inFlight.set(delivery.id, { userId: delivery.user_id, done });
    }
    return started;
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const { db, log } = this.options;
    const attempt = delivery.attempt_count + 1;
    const at = new Date();
    let result: SendResult;
    const secret = this.cipher.decrypt(delivery.secret_encrypted);
    if (delivery.deleted_at) {
      result = { statusCode: null, error: 'webhook deleted', durationMs: 0 };
    } else if (secret === null) {
      result = {
        statusCode: null,
        error: 'signing secret unreadable (JWT_SECRET changed); delete and re-create the webhook',
        durationMs: 0,
      };
    } else {
      const refusal = await refuseUnlessPublic(delivery.url, this.options.allowPrivate);
      if (refusal) {
        result = { statusCode: null, error: refusal, durationMs: 0 };
      } else {
        const headers = { [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(secret, delivery.payload, Math.floor(Date.now() / 1000)) };
        result = await (this.options.send ?? ((url, body, h) => postWebhook(url, body, h, this.options.allowPrivate)))(
          delivery.url,
          delivery.payload,
          headers,
        );
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
