import { MESSAGES, type JobStatus, type VideoJob } from '@reelsmith/contracts';

type ListedJob = Pick<VideoJob, 'status' | 'params' | 'created_at'>;

export const STATUS_FILTERS = ['all', 'completed', 'processing', 'failed', 'queued'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const STATUS_FILTER_LABELS: Record<StatusFilter, string> = {
  all: 'All',
  completed: 'Completed',
  processing: 'Processing',
  failed: 'Failed',
  queued: 'Queued',
};

export const SORT_ORDERS = ['newest', 'oldest', 'name'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const SORT_LABELS: Record<SortOrder, string> = { newest: 'Newest First', oldest: 'Oldest First', name: 'Name A-Z' };

/** Which job statuses each filter shows: in_progress counts as processing, pending as queued. */
const FILTER_STATUSES: Record<Exclude<StatusFilter, 'all'>, readonly JobStatus[]> = {
  completed: ['completed'],
  processing: ['processing', 'in_progress'],
  failed: ['failed'],
  queued: ['queued', 'pending'],
};

export const UNTITLED_VIDEO = 'Untitled Video';

/** Spec's 'X of Y videos', in the singular when there is one video: "1 of 1 video", "0 of 1 video". */
export function videoCountText(shown: number, total: number): string {
  return `${shown} of ${total} ${total === 1 ? 'video' : 'videos'}`;
}

export function videoTitle(job: Pick<VideoJob, 'params'>): string {
  return job.params.topic.trim() || UNTITLED_VIDEO;
}

export function filterAndSortJobs<J extends ListedJob>(
  jobs: readonly J[],
  { search, status, sort }: { search: string; status: StatusFilter; sort: SortOrder },
): J[] {
  const needle = search.trim().toLowerCase();
  const shown = jobs.filter(
    (job) =>
      (status === 'all' || FILTER_STATUSES[status].includes(job.status)) &&
      (needle === '' || job.params.topic.toLowerCase().includes(needle)),
  );
  const time = (job: ListedJob) => Date.parse(job.created_at) || 0;
  return shown.sort((a, b) => {
    if (sort === 'name') return videoTitle(a).localeCompare(videoTitle(b));
    return sort === 'newest' ? time(b) - time(a) : time(a) - time(b);
  });
}

/** Status colours: completed green, failed red, processing orange, queued blue. */
export type StatusTone = 'success' | 'danger' | 'warning' | 'info' | 'neutral';
export function statusTone(status: JobStatus): StatusTone {
  switch (status) {
    case 'completed':
      return 'success';
    case 'failed':
      return 'danger';
    case 'processing':
    case 'in_progress':
      return 'warning';
    case 'queued':
    case 'pending':
      return 'info';
    default:
      return 'neutral';
  }
}

export function statusLabel(status: JobStatus): string {
  return status === 'in_progress' ? 'In progress' : status.charAt(0).toUpperCase() + status.slice(1);
}

export function formatCreated(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return MESSAGES.invalidDate;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
