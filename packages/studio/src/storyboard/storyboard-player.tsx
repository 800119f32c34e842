import type { VideoJob } from '@reelsmith/contracts';
import type { Ref } from 'react';
import { apiUrl, usePlatform } from '../platform.js';

/** The player of the latest version, beside the scenes; it reports where it is so the playing scene can be marked. */
export function StoryboardPlayer({
  job,
  version,
  videoRef,
  onTime,
}: {
  job: Pick<VideoJob, 'result'>;
  version: number;
  videoRef: Ref<HTMLVideoElement>;
  onTime(seconds: number): void;
}) {
  const platform = usePlatform();
  const url = job.result?.videoUrl;
  const poster = job.result?.posterUrl;
  if (!url) return null;
  return (
    <figure className="rs-storyboard__player">
      <video
        ref={videoRef}
        key={url}
        src={apiUrl(platform, url)}
        // The poster shows the video's first frame before it plays, rather than a black box.
        {...(poster ? { poster: apiUrl(platform, poster) } : {})}
        controls
        playsInline
        preload="metadata"
        data-version={version}
        aria-label={`Version ${version} of the video`}
        onTimeUpdate={(event) => onTime(event.currentTarget.currentTime)}
        onSeeked={(event) => onTime(event.currentTarget.currentTime)}
      />
      <figcaption>Version {version} · pick a scene to play it</figcaption>
    </figure>
  );
}
