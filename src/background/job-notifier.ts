import { MESSAGES, type VideoJob } from '@reelsmith/contracts';

/**
 * A system notification when a followed job completes or fails. Clicking a finished job's
 * notification opens its video in a tab; a failed one opens My Videos in the web app.
 */
export const JOB_NOTIFICATION_PREFIX = 'reelsmith-job:';

export type NotificationsLike = Pick<typeof chrome.notifications, 'create' | 'clear'>;
export type TabsLike = Pick<typeof chrome.tabs, 'create'>;

export const notificationIdFor = (jobId: string): string => `${JOB_NOTIFICATION_PREFIX}${jobId}`;

export function jobIdFromNotification(notificationId: string): string | null {
  return notificationId.startsWith(JOB_NOTIFICATION_PREFIX) ? notificationId.slice(JOB_NOTIFICATION_PREFIX.length) || null : null;
}

export const NOTIFICATION_TEXTS = {
  completedTitle: 'Your video is ready',
  failedTitle: 'Video generation failed',
} as const;

export function notificationFor(job: VideoJob, iconUrl: string): chrome.notifications.NotificationCreateOptions {
  const topic = job.params.topic.trim() || 'Untitled Video';
  if (job.status === 'completed') {
    return { type: 'basic', iconUrl, title: NOTIFICATION_TEXTS.completedTitle, message: `“${topic}” — click to watch it.`, priority: 1 };
  }
  return {
    type: 'basic',
    iconUrl,
    title: NOTIFICATION_TEXTS.failedTitle,
    message: MESSAGES.jobFailedEvent(job.error ?? 'unknown error'),
    contextMessage: topic,
    priority: 1,
  };
}

/** Where clicking a job's notification leads: the video file, or the web app's video list. */
export function notificationTarget(job: VideoJob | undefined, apiBaseUrl: string): string {
  const videoUrl = job?.status === 'completed' ? job.result?.videoUrl : undefined;
  if (videoUrl) return /^https?:\/\//.test(videoUrl) ? videoUrl : `${apiBaseUrl}${videoUrl.startsWith('/') ? '' : '/'}${videoUrl}`;
  return `${apiBaseUrl}/videos`;
}

export async function notifyJobFinished(notifications: NotificationsLike, job: VideoJob, iconUrl: string): Promise<void> {
  await notifications.create(notificationIdFor(job.id), notificationFor(job, iconUrl));
}

export async function openNotifiedJob(
  deps: { notifications: NotificationsLike; tabs: TabsLike },
  notificationId: string,
  findJob: (jobId: string) => Promise<VideoJob | undefined>,
  apiBaseUrl: string,
): Promise<boolean> {
  const jobId = jobIdFromNotification(notificationId);
  if (!jobId) return false;
  await deps.tabs.create({ url: notificationTarget(await findJob(jobId), apiBaseUrl) });
  await deps.notifications.clear(notificationId);
  return true;
}
