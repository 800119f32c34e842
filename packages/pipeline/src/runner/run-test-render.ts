import { writeFileSync } from 'node:fs';
import type { AssembleOptions, assembleVideo } from '../assembly/assemble-video.js';
import type { AssemblyRequest } from '../providers/types.js';

/**
 * A render for tests of the step logic: no ffmpeg, placeholder files where the video and poster go,
 * and a 30 s 1080x1920 result. `onRender` is told of each request first.
 */
export function placeholderRender(onRender?: (request: AssemblyRequest, options?: AssembleOptions) => void): typeof assembleVideo {
  return async (request, options) => {
    onRender?.(request, options);
    writeFileSync(request.outputPath, 'mp4');
    writeFileSync(request.posterPath, 'jpg');
    return {
      videoPath: request.outputPath,
      posterPath: request.posterPath,
      durationSeconds: 30,
      width: 1080,
      height: 1920,
      sizeBytes: 3,
      renderStats: { seconds: 0, segmentsRendered: request.scenes.length, segmentsReused: 0 },
    };
  };
}
