import { isActiveJobStatus, MESSAGES } from '@reelsmith/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { toast } from '../toaster.js';
import { Link } from 'react-router';
import { errorMessage } from '../api/api-client.js';
import { videoListQueryKey } from '../shared/jobs/video-queries.js';
import type { TrackedJob } from '../shared/jobs/tracked-jobs-store.js';
import { useJobs, useJobsConnection, useJobService } from '../shared/jobs/jobs-context.js';
import { PageHeader } from '../ui/page-header.js';
import { JobProgress, StatusChip } from '../shared/videos/job-progress.js';
import { VideoFileActions } from '../shared/videos/video-file-actions.js';
import {
  DeleteVideoButton,
  isDeletable,
  RetryVideoButton,
  SelectVideoCheckbox,
  useVideoSelection,
  VideoBulkActions,
} from '../shared/videos/video-delete-controls.js';
import { ArtworkCredits, PhotoCredits } from './photo-credits.js';
import { AttributionCredits } from '../shared/videos/attribution-credits.js';
import { SourceCredit } from '../shared/videos/source-credit.js';
import { ResearchNote } from '../shared/videos/research-note.js';
import { VideoNotes } from '../shared/videos/video-notes.js';
import { PostKitPanel } from './post-kit-panel.js';
import { VersionMenu } from '../shared/videos/version-menu.js';
import { VideoPoster } from '../shared/videos/video-poster.js';
import { storyboardPath } from '../routes/route-table.js';
import {
  filterAndSortJobs,
  formatCreated,
  SORT_LABELS,
  SORT_ORDERS,
  STATUS_FILTER_LABELS,
  STATUS_FILTERS,
  videoCountText,
  videoTitle,
  type SortOrder,
  type StatusFilter,
} from '../shared/videos/video-list-model.js';
import './my-videos.css';

// Publishing loads with the first finished video's row, never with the first screen.
const PublishPanel = lazy(() => import('./publish-panel.js'));
const PublishSelectedButton = lazy(() => import('./publish-panel.js').then((module) => ({ default: module.PublishSelectedButton })));

function CancelButton({ job, title }: { job: TrackedJob; title: string }) {
  const service = useJobService();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      await service.cancel(job.id);
      toast.success(MESSAGES.jobCancelled);
      void queryClient.invalidateQueries({ queryKey: videoListQueryKey });
    } catch (error) {
      toast.error(errorMessage(error, MESSAGES.cancelJobFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="rs-button rs-button--ghost rs-button--danger"
      disabled={busy}
      onClick={() => void cancel()}
      aria-label={`Cancel ${title}`}
    >
      {busy ? 'Cancelling...' : 'Cancel'}
    </button>
  );
}

function VideoRow({ job, selection }: { job: TrackedJob; selection: ReturnType<typeof useVideoSelection> }) {
  const title = videoTitle(job);
  const active = isActiveJobStatus(job.status);
  const versioned = job.status === 'completed' && (job.result?.version ?? 1) > 1;
  return (
    <li className="rs-video-row">
      <SelectVideoCheckbox job={job} selected={selection.isSelected(job.id)} onToggle={selection.toggle} />
      <div className="rs-poster-slot rs-poster-slot--row">
        <VideoPoster job={job} size="row" />
      </div>
      <div className="rs-video-row__main">
        <div className="rs-video-row__title-line">
          <h2 className="rs-video-row__title">{title}</h2>
          <StatusChip status={job.status} />
        </div>
        <p className="rs-video-row__meta">
          <span>{formatCreated(job.created_at)}</span>
          <span aria-hidden="true">·</span>
          <span>{job.params.duration}s</span>
          <span aria-hidden="true">·</span>
          <span className="rs-video-row__lang">{job.params.language}</span>
        </p>
        {/* A researched topic's article is known once the video is made (result.source), a chosen one from the start. */}
        <SourceCredit source={job.result?.source ?? job.params.source} />
        {job.status === 'completed' ? <ResearchNote research={job.result?.research} /> : null}
        {job.status === 'completed' ? <VideoNotes notes={job.result?.notes} /> : null}
        {active ? <JobProgress job={job} title={title} /> : null}
        {job.status === 'failed' && job.error ? <p className="rs-video-row__error">{job.error}</p> : null}
        {job.status === 'completed' ? <PhotoCredits credits={job.result?.credits} /> : null}
        {job.status === 'completed' ? <ArtworkCredits artwork={job.result?.artwork} /> : null}
        {job.status === 'completed' ? <AttributionCredits attributions={job.result?.attributions} /> : null}
        {versioned ? <VersionMenu videoId={job.id} latestVersion={job.result?.version} /> : null}
        {job.status === 'completed' ? <PostKitPanel job={job} /> : null}
        {job.status === 'completed' ? (
          <Suspense fallback={null}>
            <PublishPanel job={job} title={title} />
          </Suspense>
        ) : null}
      </div>
      {job.status === 'completed' ? <VideoFileActions job={job} download={!versioned} /> : null}
      <div className="rs-video-row__actions">
        {job.status === 'completed' ? (
          <Link to={storyboardPath(job.id)} className="rs-button rs-button--ghost" aria-label={`Edit ${title}`}>
            Edit
          </Link>
        ) : null}
        {active ? <CancelButton job={job} title={title} /> : null}
        {job.status === 'failed' ? <RetryVideoButton job={job} /> : null}
        {isDeletable(job) ? <DeleteVideoButton job={job} /> : null}
      </div>
    </li>
  );
}

/** My Videos: search, status filter, sort and the list of the user's jobs. */
export function MyVideosPage() {
  useJobsConnection();
  const { jobs, isLoading } = useJobs();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [sort, setSort] = useState<SortOrder>('newest');
  const ids = { search: useId(), status: useId(), sort: useId() };
  const shown = filterAndSortJobs(jobs, { search, status, sort });
  const selection = useVideoSelection(jobs);

  return (
    <div className="rs-page">
      <PageHeader title="My Videos" subtitle="Every video you have generated." />
      <section className="rs-card rs-videos__toolbar" aria-label="Filter videos">
        <div className="rs-videos__control rs-videos__control--grow">
          <label htmlFor={ids.search}>Search videos</label>
          <input
            id={ids.search}
            type="search"
            className="rs-field__input"
            placeholder="Search by topic"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="rs-videos__control">
          <label htmlFor={ids.status}>Status</label>
          <select id={ids.status} className="rs-field__input" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
            {STATUS_FILTERS.map((f) => (
              <option key={f} value={f}>
                {STATUS_FILTER_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
        <div className="rs-videos__control">
          <label htmlFor={ids.sort}>Sort</label>
          <select id={ids.sort} className="rs-field__input" value={sort} onChange={(e) => setSort(e.target.value as SortOrder)}>
            {SORT_ORDERS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </section>
      <div className="rs-videos__summary">
        <p className="rs-videos__count" aria-live="polite">
          {videoCountText(shown.length, jobs.length)}
        </p>
        <VideoBulkActions shown={shown} all={jobs} selection={selection} />
        {jobs.some((job) => job.status === 'completed' && selection.isSelected(job.id)) ? (
          <Suspense fallback={null}>
            <PublishSelectedButton jobs={jobs.filter((job) => job.status === 'completed' && selection.isSelected(job.id))} />
          </Suspense>
        ) : null}
      </div>
      {isLoading && jobs.length === 0 ? (
        <p className="rs-videos__loading" role="status">
          Loading your videos…
        </p>
      ) : shown.length > 0 ? (
        <ul className="rs-videos__list">
          {shown.map((job) => (
            <VideoRow key={job.id} job={job} selection={selection} />
          ))}
        </ul>
      ) : jobs.length > 0 ? (
        <section className="rs-card rs-videos__empty">
          <h2>No videos match your filters</h2>
        </section>
      ) : (
        <section className="rs-card rs-videos__empty">
          <h2>No videos yet</h2>
          <Link to="/" className="rs-button rs-button--primary">
            Go to Video Studio
          </Link>
        </section>
      )}
    </div>
  );
}
