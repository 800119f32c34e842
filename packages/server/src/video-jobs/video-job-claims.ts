import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { VideoJobRow } from '../db/schema.js';
import { RUNNING, type Db } from './video-job-states.js';

/*
 * Claim and lease: which run owns a job (the embedded queue's claim, scale mode's token and its lease),
 * and the jobs handed back to the queue (a shutdown, a restart, a lapsed claim).
 */

/** After a restart: jobs a worker owned go back to the queue; their workspace checkpoints let the rerun skip finished steps. */
export async function requeueInterruptedJobs(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .updateTable('video_jobs')
    .set({ status: 'queued', updated_at: now.toISOString(), claim_token: null, claim_expires_at: null })
    .where('status', 'in', RUNNING)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Takes the next job fairly: the oldest queued job of the user who least recently started one (users
 * who never started one first), so one user's burst waits behind everyone else's first job. Returns
 * undefined when nothing is queued. The claim is a conditional update, so a job cancelled meanwhile is skipped.
 */
export async function claimNextJob(db: Db, now = new Date()): Promise<VideoJobRow | undefined> {
  for (;;) {
    const lastStarts = db
      .selectFrom('video_jobs')
      .select(['user_id', (eb) => eb.fn.max('started_at').as('last_started')])
      .where('started_at', 'is not', null)
      .groupBy('user_id')
      .as('starts');
    const next = await db
      .selectFrom('video_jobs as queued')
      .leftJoin(lastStarts, 'starts.user_id', 'queued.user_id')
      .select(['queued.id'])
      .where('queued.status', '=', 'queued')
      // NULLs sort first in SQLite and last in PostgreSQL, so spell the order out.
      .orderBy(sql`case when starts.last_started is null then 0 else 1 end`)
      .orderBy('starts.last_started', 'asc')
      .orderBy('queued.created_at', 'asc')
      // A batch's rows share one created_at: they run in row order.
      .orderBy('queued.batch_index', 'asc')
      .orderBy('queued.id', 'asc')
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    const timestamp = now.toISOString();
    const claimed = await db
      .updateTable('video_jobs')
      // A fresh token fences this run's writes, as in scale mode; in one process the claim never expires.
      .set((eb) => ({
        status: 'processing',
        started_at: timestamp,
        updated_at: timestamp,
        claim_token: randomUUID(),
        claim_expires_at: null,
        // Counted before any step runs: a run that crashes the process is counted too.
        unfinished_runs: eb('unfinished_runs', '+', 1),
      }))
      .where('id', '=', next.id)
      .where('status', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
    if (claimed) return claimed;
  }
}

export type ClaimOutcome = { claimed: true; job: VideoJobRow } | { claimed: false; heldUntil: string | null };

/**
 * Scale mode's claim, fenced by the BullMQ job token: a queued job, or a running one whose claim is
 * this token's or has expired (its worker died or stalled past the lock). While another token's
 * claim is fresh the caller must back off (`heldUntil`); a finished, cancelled or deleted job gives
 * `heldUntil: null`: nothing to run.
 */
export async function claimJobWithToken(db: Db, jobId: string, token: string, lockMs: number, now = new Date()): Promise<ClaimOutcome> {
  const timestamp = now.toISOString();
  const job = await db
    .updateTable('video_jobs')
    .set((eb) => ({
      status: 'processing',
      started_at: timestamp,
      updated_at: timestamp,
      claim_token: token,
      claim_expires_at: new Date(now.getTime() + lockMs).toISOString(),
      // Counted before any step runs: a worker killed mid-step leaves its run counted.
      unfinished_runs: eb('unfinished_runs', '+', 1),
    }))
    .where('id', '=', jobId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([
          eb('status', 'in', RUNNING),
          eb.or([
            eb('claim_token', 'is', null),
            eb('claim_token', '=', token),
            eb('claim_expires_at', 'is', null),
            eb('claim_expires_at', '<=', timestamp),
          ]),
        ]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (job) return { claimed: true, job };
  const held = await db.selectFrom('video_jobs').select(['status', 'claim_expires_at']).where('id', '=', jobId).executeTakeFirst();
  return { claimed: false, heldUntil: held && RUNNING.includes(held.status) ? held.claim_expires_at : null };
}

/** Extends this token's claim; false when the claim is no longer ours (taken over, cancelled, finished). */
export async function renewJobClaim(db: Db, jobId: string, token: string, lockMs: number, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('video_jobs')
    .set({ claim_expires_at: new Date(now.getTime() + lockMs).toISOString() })
    .where('id', '=', jobId)
    .where('claim_token', '=', token)
    .where('status', 'in', RUNNING)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * What a progress write found: written (or nothing newer to write), the job no longer running
 * (cancelled, deleted, finished) or running under another claim (this worker stalled and was replaced).
 */
export type ProgressOutcome = 'written' | 'inactive' | 'claim-lost';

/** Whether the running job is still under this claim: 'written' when it is (nothing to do), else why not. */
export async function claimState(db: Db, jobId: string, claimToken: string | null): Promise<ProgressOutcome> {
  const row = await db.selectFrom('video_jobs').select(['status', 'claim_token']).where('id', '=', jobId).executeTakeFirst();
  if (!row || !RUNNING.includes(row.status)) return 'inactive';
  return claimToken === null || row.claim_token === claimToken ? 'written' : 'claim-lost';
}

/**
 * Every write a worker makes to a running job names the claim it runs under: a worker that stalled
 * past its lock (and was replaced) finds its writes refused, and the current claimant is untouched.
 */
export function fenced<Q extends { where: (column: 'claim_token', op: '=', value: string) => Q }>(query: Q, claimToken: string | null): Q {
  return claimToken === null ? query : query.where('claim_token', '=', claimToken);
}

/** A running job interrupted by shutdown: back to the queue for the next start. */
export async function markRequeued(db: Db, jobId: string, claimToken: string | null): Promise<void> {
  await fenced(
    db
      .updateTable('video_jobs')
      // A clean interruption: the run did not crash, so it does not count towards failing the job.
      .set({ status: 'queued', updated_at: new Date().toISOString(), claim_token: null, claim_expires_at: null, unfinished_runs: 0 })
      .where('id', '=', jobId)
      .where('status', 'in', RUNNING),
    claimToken,
  ).execute();
}

/**
 * Scale mode's sweeper: running jobs whose claim lapsed more than `graceMs` ago (their worker died,
 * stalled or gave up without handing them back) go back to 'queued' with no claim, so a late write
 * of the old claimant is refused. Returns them, for the caller to put back on the queue.
 */
export async function requeueLapsedClaims(db: Db, graceMs: number, now = new Date()): Promise<Array<{ id: string; user_id: string }>> {
  const cutoff = new Date(now.getTime() - graceMs).toISOString();
  const lapsed = await db
    .selectFrom('video_jobs')
    .select(['id', 'user_id'])
    .where('status', 'in', RUNNING)
    .where((eb) => eb.or([eb('claim_expires_at', 'is', null), eb('claim_expires_at', '<', cutoff)]))
    .execute();
  const requeued: Array<{ id: string; user_id: string }> = [];
  for (const job of lapsed) {
    const result = await db
      .updateTable('video_jobs')
      .set({ status: 'queued', updated_at: now.toISOString(), claim_token: null, claim_expires_at: null })
      .where('id', '=', job.id)
      .where('status', 'in', RUNNING)
      .where((eb) => eb.or([eb('claim_expires_at', 'is', null), eb('claim_expires_at', '<', cutoff)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) requeued.push(job);
  }
  return requeued;
}
