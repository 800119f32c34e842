import { ACTIVE_JOB_STATUSES, FINISHED_JOB_STATUSES, type JobStatus } from '@reelsmith/contracts';
import type { Kysely } from 'kysely';
import type { Database, VideoJobRow } from '../db/schema.js';

/* The statuses and types every part of the video job repository shares. */

export type Db = Kysely<Database>;

export const ACTIVE = ACTIVE_JOB_STATUSES as JobStatus[];
export const FINISHED = FINISHED_JOB_STATUSES as JobStatus[];
export type JobOwner = Pick<VideoJobRow, 'id' | 'user_id'>;

/** Statuses a job is in while a worker owns it; both go back to 'queued' after a restart. */
// This server stores a running job as 'processing' only; 'in_progress' stays in the contract because
// the spec's clients accept it, but nothing here writes it.
export const RUNNING: JobStatus[] = ['processing'];
