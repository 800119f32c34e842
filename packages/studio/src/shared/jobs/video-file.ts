import type { VideoJob } from '@reelsmith/contracts';
import type { ApiClient } from '../../api/api-client.js';
import { apiUrl, type Platform } from '../../platform.js';
import { clickDownloadLink } from '../../ui/browser-download.js';

/**
 * The job's file URL against the API host: from the job's result when present, else from
 * GET /api/videos/:id. Null while the file does not exist yet.
 */
export async function resolveVideoFileUrl(
  api: ApiClient,
  platform: Pick<Platform, 'apiBaseUrl'>,
  job: Pick<VideoJob, 'id' | 'result'>,
): Promise<string | null> {
  let path = job.result?.videoUrl ?? null;
  if (!path) {
    const detail = await api.call('video', { params: { id: job.id } }).catch((error: unknown) => {
      console.warn('Fetching the video failed', error);
      return null;
    });
    path = detail?.result?.videoUrl ?? detail?.job.result?.videoUrl ?? null;
  }
  return path ? apiUrl(platform, path) : null;
}

/** The same file served as an attachment. */
export function downloadUrlFor(fileUrl: string): string {
  const url = new URL(fileUrl, 'http://relative.invalid');
  url.searchParams.set('download', '1');
  return /^https?:\/\//.test(fileUrl) ? url.toString() : `${url.pathname}${url.search}`;
}

/** Starts a browser download of the file (the server answers ?download=1 as an attachment). */
export function triggerDownload(fileUrl: string, filename: string): void {
  clickDownloadLink(downloadUrlFor(fileUrl), filename);
}

export function videoFilename(job: Pick<VideoJob, 'id' | 'result'>): string {
  return job.result?.filename ?? `${job.id}.mp4`;
}
