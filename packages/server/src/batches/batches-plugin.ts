import multipart from '@fastify/multipart';
import {
  API,
  BATCH_CSV_MAX_BYTES,
  BATCH_MAX_ROWS,
  BATCH_MESSAGES,
  BATCH_SOCKET_EVENTS,
  MESSAGES,
  batchCompletedEventSchema,
  batchProgressEventSchema,
  describeInvalidRows,
  validateBatchRows,
  type BatchRowError,
  type GenerationParams,
} from '@reelsmith/contracts';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest, forbidden, HttpError, notFound } from '../errors.js';
import type { AuthUser } from '../http/auth-user.js';
import { registerRoute } from '../http/register-route.js';
import { remainingVideos } from '../payments/can-generate.js';
import { userRoom } from '../realtime/realtime-plugin.js';
import {
  allFinished,
  batchDetailOf,
  batchOfJob,
  batchWebhookRows,
  cancelUserBatch,
  findUserBatch,
  listUserBatches,
  markBatchCompleted,
  readBatch,
} from '../video-jobs/video-batch-repository.js';
import { createBatchWithinQuota, submissionTime } from '../video-jobs/video-job-repository.js';
import type { JobEventOrigin } from '../events/job-events.js';
import { createBatchEventRelay, type BatchSocketEvent } from './batch-event-relay.js';
import { readCsvBatch, type BatchInput } from './csv-batch.js';

/** Jobs whose batch (or the lack of one) this process remembers; a job never changes batch. */
const JOB_BATCH_CACHE_LIMIT = 5_000;

function beyondPlan(needed: number, remaining: number): HttpError {
  return new HttpError(400, BATCH_MESSAGES.beyondPlan(needed, remaining), 'rows', { details: { needed, remaining } });
}

function invalidRowsError(invalidRows: BatchRowError[]): HttpError {
  return new HttpError(400, BATCH_MESSAGES.invalidRows(invalidRows.length, describeInvalidRows(invalidRows)), 'rows', {
    details: { invalidRows },
  });
}

/**
 * Batches: POST /api/batches (JSON rows or a CSV), the list, one batch, cancel; and their live
 * figures. Each row goes through the single video's own steps (app.videoSubmissions: voice, plan,
 * source) and becomes an ordinary job, queued fairly (JobQueue.enqueueBatch). The batch's
 * `batch_progress` / `batch_completed` socket events and its `batch.completed` webhook follow the
 * job events of its rows; the socket events reach the creator's sockets on every API process.
 */
export const batchesPlugin = fp(
  async (app) => {
    const submissions = app.videoSubmissions;
    const queueConfig = app.config.queue;
    const relay = await createBatchEventRelay({
      redis: queueConfig.backend === 'bullmq' ? { url: queueConfig.redisUrl, prefix: queueConfig.prefix } : null,
      deliver: (batch: BatchSocketEvent) => app.io.to(userRoom(batch.userId)).emit(batch.name, batch.event as never),
      log: app.log,
    });
    const publishBatchEvent = (batch: BatchSocketEvent) =>
      relay.publish(batch).catch((error: unknown) => app.log.warn({ err: error, name: batch.name }, 'could not relay a batch event'));

    async function batchInput(request: FastifyRequest & { body: unknown }, user: AuthUser): Promise<BatchInput> {
      if (request.isMultipart()) {
        // The plan is checked on the rows counted, before the file is parsed: an account with no
        // videos left costs the server no parsing.
        return readCsvBatch(request, async (rows) => {
          if (rows > BATCH_MAX_ROWS) throw badRequest(BATCH_MESSAGES.tooManyRows, 'rows');
          const remaining = await remainingVideos(app.db, user.id);
          if (remaining !== null && remaining < Math.max(rows, 1)) throw beyondPlan(Math.max(rows, 1), remaining);
        });
      }
      const body = request.body as { name?: string; defaults: Record<string, unknown>; rows: Array<Record<string, unknown>> } | undefined;
      if (!body) throw badRequest(BATCH_MESSAGES.rowsRequired, 'rows');
      return { name: body.name?.trim() || null, defaults: body.defaults, rows: body.rows };
    }

    /** Each valid row through the single video's steps; a row they refuse (its voice, its link) is reported like an invalid one. */
    async function prepareRows(user: AuthUser, rows: GenerationParams[], lines?: readonly number[]): Promise<GenerationParams[]> {
      const prepared: GenerationParams[] = [];
      const refused: BatchRowError[] = [];
      for (const [index, row] of rows.entries()) {
        try {
          // A url row's page is read by its job once the batch is accepted, never inside this request.
          prepared.push(await submissions.prepare(user, row, { readLinkLater: true }));
        } catch (error) {
          // The plan's refusal is the whole batch's (a 403 as for one video); anything unexpected stays a 500.
          if (!(error instanceof HttpError) || error.statusCode === 401 || error.statusCode === 403) throw error;
          const line = lines?.[index];
          refused.push({
            index,
            ...(line !== undefined ? { line } : {}),
            errors: [{ field: error.field ?? 'source', message: error.message }],
          });
        }
      }
      if (refused.length > 0) throw invalidRowsError(refused);
      return prepared;
    }

    await app.register(async (scope) => {
      // CSV uploads only in this scope; the JSON body of the same route is parsed as everywhere else.
      await scope.register(multipart, { limits: { fileSize: BATCH_CSV_MAX_BYTES, files: 1, fields: 4, parts: 5 } });
      registerRoute(
        scope,
        API.createBatch,
        async (request) => {
          const input = await batchInput(request, request.user);
          if (input.rows.length === 0) throw badRequest(BATCH_MESSAGES.rowsRequired, 'rows');
          if (input.rows.length > BATCH_MAX_ROWS) throw badRequest(BATCH_MESSAGES.tooManyRows, 'rows');
          const validation = validateBatchRows(input.defaults, input.rows, input.csv);
          if (!validation.ok) throw invalidRowsError(validation.invalidRows);
          // Checked before any link is fetched: a batch the plan cannot hold costs no fetch.
          const remaining = await remainingVideos(app.db, request.user.id);
          if (remaining !== null && remaining < validation.rows.length) throw beyondPlan(validation.rows.length, remaining);
          const rows = await prepareRows(request.user, validation.rows, input.csv?.lines);
          const outcome = await createBatchWithinQuota(
            app.db,
            request.user.id,
            {
              name: input.name,
              rows,
              brand: await submissions.partnerBrandOf(request.user),
            },
            submissionTime(),
          );
          if (!outcome.created) {
            if (outcome.remaining < outcome.needed) throw beyondPlan(outcome.needed, outcome.remaining);
            throw forbidden(outcome.reason ?? MESSAGES.subscriptionRequired);
          }
          await app.jobQueue.enqueueBatch(
            outcome.jobs.map((job) => job.id),
            request.user.id,
          );
          request.log.info({ batchId: outcome.batch.id, jobs: outcome.jobs.length }, 'batch queued');
          return batchDetailOf(outcome.batch, outcome.jobs);
        },
        { preHandler: submissions.limitSubmits },
      );
    });

    registerRoute(app, API.listBatches, async (request) => ({
      batches: await listUserBatches(app.db, request.user.id, request.query.limit),
    }));

    registerRoute(app, API.batch, async (request) => {
      const batch = await findUserBatch(app.db, request.user.id, request.params.id);
      if (!batch) throw notFound(MESSAGES.notFound);
      return batch;
    });

    registerRoute(app, API.cancelBatch, async (request) => {
      const userId = request.user.id;
      const outcome = await cancelUserBatch(app.db, userId, request.params.id);
      if (!outcome) throw notFound(MESSAGES.notFound);
      if (!outcome.cancelled) throw badRequest(BATCH_MESSAGES.notCancellable);
      let cancelled = 0;
      for (const jobId of outcome.activeJobIds) if (await submissions.cancel(userId, jobId)) cancelled++;
      await finishIfDone(request.params.id, userId);
      const batch = await findUserBatch(app.db, userId, request.params.id);
      if (!batch) throw notFound(MESSAGES.notFound);
      return { cancelled, batch };
    });

    // Live figures: every job event of a batch's row refreshes the batch once (events arriving while
    // it is being read are folded into the next read, so a 100-row batch is not read 100 times a second).
    const jobBatch = new Map<string, { batchId: string; userId: string } | null>();
    const refreshing = new Map<string, { again: boolean; jobIds: Map<string, JobEventOrigin> }>();

    async function batchOf(jobId: string) {
      if (jobBatch.has(jobId)) return jobBatch.get(jobId)!;
      const owner = await batchOfJob(app.db, jobId);
      if (jobBatch.size >= JOB_BATCH_CACHE_LIMIT) jobBatch.clear();
      jobBatch.set(jobId, owner);
      return owner;
    }

    async function finishIfDone(batchId: string, userId: string): Promise<void> {
      const read = await readBatch(app.db, batchId);
      if (!read || read.batch.completed_at || !allFinished(read.detail.counts)) return;
      const status = read.batch.cancelled_at ? ('cancelled' as const) : ('completed' as const);
      const rows = await batchWebhookRows(app.db, batchId);
      // The batch.completed deliveries are written with the mark (the webhook outbox): a crash after it loses none.
      const marked = await app.db.transaction().execute(async (trx) => {
        if (!(await markBatchCompleted(trx, batchId))) return false;
        await app.webhookDispatcher.outbox.recordBatchCompleted(trx, userId, {
          batchId,
          name: read.batch.name,
          status,
          counts: read.detail.counts,
          rows,
        });
        return true;
      });
      if (!marked) return;
      app.webhookDispatcher.kick();
      const event = batchCompletedEventSchema.parse({ batchId, name: read.batch.name, status, counts: read.detail.counts });
      // Only the process that marked the batch completed says so; the relay takes it to the others' sockets.
      await publishBatchEvent({ name: BATCH_SOCKET_EVENTS.batchCompleted, userId, event });
    }

    /**
     * `jobIds`: the rows that moved, each with where its event came from. A worker's event (relayed)
     * reaches every API process, and each tells its own sockets; an event only this process saw (a
     * cancel, an admin's action, the embedded queue's worker) is relayed to the others' sockets.
     */
    async function refresh(batchId: string, userId: string, jobIds: Map<string, JobEventOrigin>): Promise<void> {
      const read = await readBatch(app.db, batchId);
      if (!read) return;
      const { detail } = read;
      for (const row of detail.rows) {
        const origin = jobIds.get(row.jobId);
        if (!origin) continue;
        const event = batchProgressEventSchema.parse({
          batchId,
          status: detail.status,
          counts: detail.counts,
          percent: detail.percent,
          row,
        });
        if (origin === 'relayed') app.io.to(userRoom(userId)).emit(BATCH_SOCKET_EVENTS.batchProgress, event);
        else await publishBatchEvent({ name: BATCH_SOCKET_EVENTS.batchProgress, userId, event });
      }
      if (allFinished(detail.counts) && !read.batch.completed_at) await finishIfDone(batchId, userId);
    }

    const inFlight = new Set<Promise<void>>();
    function onJobEvent(jobId: string, origin: JobEventOrigin): void {
      const work = (async () => {
        const owner = await batchOf(jobId);
        if (!owner) return;
        const pending = refreshing.get(owner.batchId);
        if (pending) {
          pending.again = true;
          // A local event wins over a relayed one for the same row: the other processes need it too.
          if (pending.jobIds.get(jobId) !== 'local') pending.jobIds.set(jobId, origin);
          return;
        }
        const state = { again: true, jobIds: new Map<string, JobEventOrigin>([[jobId, origin]]) };
        refreshing.set(owner.batchId, state);
        try {
          while (state.again) {
            state.again = false;
            const jobIds = new Map(state.jobIds);
            state.jobIds.clear();
            await refresh(owner.batchId, owner.userId, jobIds);
          }
        } finally {
          refreshing.delete(owner.batchId);
        }
      })().catch((error: unknown) => app.log.error({ err: error, jobId }, 'batch progress update failed'));
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    }

    const onProgress = (event: { jobId: string }, _userId: string, origin: JobEventOrigin = 'local') => onJobEvent(event.jobId, origin);
    const stopListening = app.jobEvents.listen({ job_progress: onProgress, job_completed: onProgress, job_failed: onProgress });
    app.addHook('preClose', async () => {
      stopListening();
      // Before the database closes: an update under way finishes (its batch.completed is not lost).
      await Promise.allSettled([...inFlight]);
      await relay.close();
    });
  },
  { name: 'batches', fastify: '5.x', dependencies: ['database', 'auth', 'jobs', 'realtime', 'error-handler'] },
);
