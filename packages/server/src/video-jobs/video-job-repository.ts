/*
 * The video job repository: the only module that writes `video_jobs`, one file per concern (this one
 * names them all for callers): admission and quota (video-job-admission.ts), claim and lease
 * (video-job-claims.ts), state transitions (video-job-transitions.ts), read models and statistics
 * (video-job-reads.ts). Each transition is one conditional write that returns the events it implies.
 */
export {
  type CreateJobOutcome,
  submissionTime,
  createJobWithinQuota,
  type CreateBatchOutcome,
  createBatchWithinQuota,
  type RetryJobOutcome,
  RETRY_ONLY_FAILED,
  RETRY_CRASHED,
  retryFailedUserJob,
} from './video-job-admission.js';
export {
  requeueInterruptedJobs,
  claimNextJob,
  type ClaimOutcome,
  claimJobWithToken,
  renewJobClaim,
  type ProgressOutcome,
  claimState,
  markRequeued,
  requeueLapsedClaims,
} from './video-job-claims.js';
export {
  type ProgressWrite,
  recordProgress,
  markCompleted,
  markFailed,
  queueRerender,
  cancelUserJob,
  cancelActiveUserJobs,
  deleteFinishedUserJob,
  updateUserPostKit,
} from './video-job-transitions.js';
export { findUserJob, listUserJobs, unfinishedJobs, unfinishedJobCount, hasActiveJobs, jobCounts, userStorage } from './video-job-reads.js';
