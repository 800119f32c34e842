import type { VideoJob } from '@reelsmith/contracts';
import { apiUrl, usePlatform } from '../platform.js';

/** What the latest version looks like: the player of the newest file. */
export function LatestVersion({ job, version }: { job: Pick<VideoJob, 'result'>; version: number }) {
  const platform = usePlatform();
  const url = job.result?.videoUrl;
  if (!url) return null;
  return (
    <figure className="rs-storyboard__player">
      <video key={url} src={apiUrl(platform, url)} controls playsInline preload="metadata" data-version={version} aria-label={`Version ${version} of the video`} />
      <figcaption>Version {version}</figcaption>
    </figure>
  );
}
