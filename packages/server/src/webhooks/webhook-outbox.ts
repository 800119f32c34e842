import type { BatchWebhookEvent, WebhookEvent, WebhookEventType } from '@reelsmith/contracts';
import type { Kysely, Transaction } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/schema.js';
import type { JobEvent } from '../events/job-events.js';

type Db = Kysely<Database> | Transaction<Database>;

let lastWrite = 0;
/**
 * When an outbox row was written, and its place in its endpoint's order: strictly increasing within
 * this process, so two events written in the same millisecond (or in one transaction) keep the order
 * they were written in. Across processes, events that close are concurrent state changes whose order
 * nobody can see.
 */
function orderedNow(): string {
  lastWrite = Math.max(Date.now(), lastWrite + 1);
  return new Date(lastWrite).toISOString();
}

/**
 * The webhook outbox: a state change writes its deliveries (one per subscribed endpoint) into
 * `webhook_deliveries` in the transaction that makes the change, so a crash after the commit loses
 * nothing; the dispatcher sends from there (at least once, in order per endpoint). The unique
 * (webhook, event) pair keeps an event written twice (by two processes, or a replay) one delivery.
 */
export class WebhookOutbox {
  constructor(
    /** PUBLIC_URL: relative video and poster paths in payloads are made absolute against it. */
    private readonly publicUrl?: string,
  ) {}

  /** Receivers get absolute addresses, like the embed's events: a relative path means nothing on their side. */
  private absolute(path: string | undefined): string | undefined {
    if (path === undefined || !this.publicUrl) return path;
    return new URL(path, `${this.publicUrl.replace(/\/+$/, '')}/`).toString();
  }

  /** The deliveries of a job transition's events (a completion, a failure); other events have none. Returns how many rows were written. */
  async recordJobEvents(db: Db, events: readonly JobEvent[]): Promise<number> {
    let written = 0;
    for (const item of events) {
      if (item.name === 'job_completed') {
        const { videoUrl, posterUrl, title, durationSeconds, version, source, attributions } = item.event.result;
        written += await this.record(db, item.userId, 'video.completed', {
          jobId: item.event.jobId,
          version: version ?? 1,
          status: 'completed',
          videoUrl: this.absolute(videoUrl),
          posterUrl: this.absolute(posterUrl),
          title,
          durationSeconds,
          ...(source ? { source } : {}),
          ...(attributions?.length ? { attributions } : {}),
        });
      } else if (item.name === 'job_failed') {
        const { jobId, version, error } = item.event;
        written += await this.record(db, item.userId, 'video.failed', { jobId, version: version ?? 1, status: 'failed', error });
      }
    }
    return written;
  }

  /** `eventId`: the event's stable id when it is not a render's outcome (a publication's, which names the publication). */
  record(db: Db, userId: string, type: WebhookEvent['type'], data: WebhookEvent['data'], eventId?: string): Promise<number> {
    // One event per outcome of each render (job and version): the same id whichever process writes
    // it first, and a re-render's outcome is a new event rather than a duplicate of the first one's.
    const id = eventId ?? `evt_${type.replace('.', '_')}_${data.jobId}_v${data.version ?? 1}`;
    const body: WebhookEvent = { id, type, createdAt: new Date().toISOString(), data };
    return this.store(db, userId, type, id, JSON.stringify(body));
  }

  /** `batch.completed`: once per batch (its id makes the event id); rows' video addresses made absolute. */
  recordBatchCompleted(db: Db, userId: string, data: BatchWebhookEvent['data']): Promise<number> {
    const eventId = `evt_batch_completed_${data.batchId}`;
    const rows = data.rows.map((row) => ({ ...row, videoUrl: this.absolute(row.videoUrl), posterUrl: this.absolute(row.posterUrl) }));
    const body: BatchWebhookEvent = { id: eventId, type: 'batch.completed', createdAt: new Date().toISOString(), data: { ...data, rows } };
    return this.store(db, userId, 'batch.completed', eventId, JSON.stringify(body));
  }

  private async store(db: Db, userId: string, type: WebhookEventType, id: string, payload: string): Promise<number> {
    const hooks = await db
      .selectFrom('webhooks')
      .select(['id', 'events'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .execute();
    const targets = hooks.filter((hook) => (JSON.parse(hook.events) as string[]).includes(type));
    if (targets.length === 0) return 0;
    const now = orderedNow();
    const result = await db
      .insertInto('webhook_deliveries')
      .values(
        targets.map((hook) => ({
          id: randomUUID(),
          webhook_id: hook.id,
          event_id: id,
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
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }
}
