import { RECENT_VIDEOS_COUNT, SEE_ALL_THRESHOLD } from '@reelsmith/contracts';
import { Suspense } from 'react';
import { Link } from 'react-router';
import type { TrackedJob } from '../shared/jobs/tracked-jobs-store.js';
import { preloadable } from '../ui/preloadable.js';

// The rows' code (posters, progress bars, file actions, retry and delete) is fetched once there is a
// video to list: a creator without videos yet (every first visit) loads the empty panel only. The
// studio fetches it beside the video list while a stored session is checked (preloadRecentVideoRows).
const rows = preloadable(() => import('./recent-video-list.js').then((m) => m.RecentVideoList));
const RecentVideoList = rows.Component;
const clearFailed = preloadable(() => import('../shared/videos/video-delete-controls.js').then((m) => m.ClearFailedButton));
const ClearFailedButton = clearFailed.Component;

/** True when one of the panel's videos failed or was cancelled (the header then offers Clear failed). */
const hasClearable = (jobs: readonly Pick<TrackedJob, 'status'>[]) =>
  jobs.slice(0, RECENT_VIDEOS_COUNT).some((job) => job.status === 'failed' || job.status === 'cancelled');

/** Fetches the rows' code when `jobs` has a video to show (the splash waits for it, so no row pops in). */
export function preloadRecentVideoRows(jobs: readonly Pick<TrackedJob, 'status'>[]): Promise<unknown> {
  if (jobs.length === 0) return Promise.resolve();
  return Promise.all([rows.preload(), hasClearable(jobs) ? clearFailed.preload() : null]);
}

/**
 * The 5 latest jobs with a Live indicator while the live connection is up (signed in only).
 * `editable: false` where the storyboard cannot open (the embedded studio): no Edit that does nothing.
 */
export function RecentVideosPanel({
  jobs,
  connected,
  editable = true,
}: {
  jobs: readonly TrackedJob[];
  connected: boolean;
  editable?: boolean;
}) {
  return (
    <section className="rs-card rs-recent" aria-labelledby="rs-recent-title">
      <header className="rs-recent__header">
        <h2 id="rs-recent-title" className="rs-section-title">
          Recent Videos
        </h2>
        {connected ? (
          <span className="rs-live" title="Progress updates arrive live">
            <span className="rs-live__dot" aria-hidden="true" />
            Live
          </span>
        ) : null}
        {hasClearable(jobs) ? (
          <Suspense fallback={null}>
            <ClearFailedButton jobs={jobs.slice(0, RECENT_VIDEOS_COUNT)} />
          </Suspense>
        ) : null}
        {jobs.length > SEE_ALL_THRESHOLD ? (
          <Link to="/videos" className="rs-button rs-button--ghost rs-button--small rs-recent__see-all">
            See All
          </Link>
        ) : null}
      </header>
      {jobs.length === 0 ? (
        <div className="rs-recent__empty">
          <p>No videos yet. Your first one will appear here while it is made.</p>
          <Link to="/videos" className="rs-button rs-button--ghost">
            View All Videos
          </Link>
        </div>
      ) : (
        <Suspense fallback={null}>
          <RecentVideoList jobs={jobs} editable={editable} />
        </Suspense>
      )}
    </section>
  );
}
