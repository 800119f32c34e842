import type { JobStatus } from '@reelsmith/contracts';
import { jobStepLabel } from '../jobs/job-labels.js';
import type { TrackedJob } from '../jobs/tracked-jobs-store.js';
import { statusLabel, statusTone } from './video-list-model.js';
import './job-status.css';

export function StatusChip({ status }: { status: JobStatus }) {
  return <span className={`rs-status rs-status--${statusTone(status)}`}>{statusLabel(status)}</span>;
}

/** An active job's bar with its step label and percent. */
export function JobProgress({ job, title }: { job: Pick<TrackedJob, 'progress' | 'currentStep' | 'stepText'>; title: string }) {
  const percent = Math.round(Math.max(0, Math.min(100, job.progress)));
  return (
    <div className="rs-job-progress">
      <div
        className="rs-progress"
        role="progressbar"
        aria-label={`Progress of ${title}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <p className="rs-job-progress__text">
        <span className="rs-job-progress__step">{jobStepLabel(job)}</span>
        <span className="rs-job-progress__percent">{percent}%</span>
      </p>
    </div>
  );
}
