import { isActiveJobStatus, RECENT_VIDEOS_COUNT } from '@reelsmith/contracts';
import { Link } from 'react-router';
import type { TrackedJob } from '../shared/jobs/tracked-jobs-store.js';
import { JobProgress, StatusChip } from '../shared/videos/job-progress.js';
import { RetryVideoButton } from '../shared/videos/video-delete-controls.js';
import { SourceCredit } from '../shared/videos/source-credit.js';
import { VideoFileActions } from '../shared/videos/video-file-actions.js';
import { VideoPoster } from '../shared/videos/video-poster.js';
import { formatCreated, videoTitle } from '../shared/videos/video-list-model.js';
import { storyboardPath } from '../routes/route-table.js';

function RecentVideo({ job, editable }: { job: TrackedJob; editable: boolean }) {
  const title = videoTitle(job);
  return (
    <li className="rs-recent__item">
      <div className="rs-recent__summary">
        <div className="rs-poster-slot rs-poster-slot--card">
          <VideoPoster job={job} size="card" />
        </div>
        <div className="rs-recent__text">
          <div className="rs-recent__head">
            <h3 className="rs-recent__title" title={title}>
              {title}
            </h3>
            <StatusChip status={job.status} />
          </div>
          <p className="rs-recent__meta">
            {formatCreated(job.created_at)} · {job.params.duration}s · <span className="rs-recent__lang">{job.params.language}</span>
          </p>
        </div>
      </div>
      <SourceCredit source={job.params.source} />
      {isActiveJobStatus(job.status) ? <JobProgress job={job} title={title} /> : null}
      {job.status === 'failed' && job.error ? <p className="rs-recent__error">{job.error}</p> : null}
      {job.status === 'failed' ? <RetryVideoButton job={job} compact /> : null}
      {job.status === 'completed' ? (
        <div className="rs-recent__actions">
          <VideoFileActions job={job} compact />
          {editable ? (
            <Link to={storyboardPath(job.id)} className="rs-button rs-button--ghost rs-button--small" aria-label={`Edit ${title}`}>
              Edit
            </Link>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** The panel's rows (loaded by recent-videos-panel.tsx once there is a video to list). */
export function RecentVideoList({ jobs, editable }: { jobs: readonly TrackedJob[]; editable: boolean }) {
  return (
    <ul className="rs-recent__list">
      {jobs.slice(0, RECENT_VIDEOS_COUNT).map((job) => (
        <RecentVideo key={job.id} job={job} editable={editable} />
      ))}
    </ul>
  );
}
