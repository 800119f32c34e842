import type { VideoJob } from '@reelsmith/contracts';
import { apiUrl, usePlatform } from '../../platform.js';
import { videoShape, type VideoShape } from './video-file-actions.js';
import './video-poster.css';

/** The poster box's pixel size per list and format: the box is laid out before its picture arrives. */
export type PosterSize = 'row' | 'card';
const POSTER_HEIGHT: Record<PosterSize, number> = { row: 96, card: 72 };
const SHAPE_RATIO: Record<VideoShape, number> = { landscape: 16 / 9, square: 1, portrait: 9 / 16 };

export function posterBox(shape: VideoShape, size: PosterSize): { width: number; height: number } {
  const height = POSTER_HEIGHT[size];
  return { width: Math.round(height * SHAPE_RATIO[shape]), height };
}

/** "0:30", "1:05": the video's own length once rendered, the requested one before. */
export function formatVideoDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * A video's poster in a box of the video's own shape, with its length on it. The picture loads lazily;
 * a job without a poster yet (queued, rendering, failed) keeps the same box, so rows never jump.
 */
export function VideoPoster({ job, size }: { job: Pick<VideoJob, 'result' | 'params'>; size: PosterSize }) {
  const platform = usePlatform();
  const shape = videoShape(job);
  const box = posterBox(shape, size);
  const poster = job.result?.posterUrl;
  const seconds = job.result?.durationSeconds ?? job.params.duration;
  return (
    <div className={`rs-poster rs-poster--${size} rs-poster--${shape}`} style={box} data-shape={shape}>
      {poster ? (
        <img
          className="rs-poster__image"
          src={apiUrl(platform, poster)}
          alt=""
          loading="lazy"
          decoding="async"
          width={box.width}
          height={box.height}
        />
      ) : (
        <span className="rs-poster__empty" aria-hidden="true" />
      )}
      {seconds !== undefined ? (
        <span className="rs-poster__duration" aria-label={`Length ${formatVideoDuration(seconds)}`}>
          {formatVideoDuration(seconds)}
        </span>
      ) : null}
    </div>
  );
}
