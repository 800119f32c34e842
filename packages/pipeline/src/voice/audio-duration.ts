import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';

/** Duration in seconds of an audio file, read by ffprobe from the container (works for MP3 and WAV). */
export function probeAudioDuration(path: string, ffprobePath = 'ffprobe', signal?: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      ffprobePath,
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', path],
      { signal, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`ffprobe could not read ${path}: ${String(stderr).trim() || error.message}`, { cause: error }));
          return;
        }
        const seconds = Number.parseFloat(String(stdout).trim());
        if (!Number.isFinite(seconds) || seconds <= 0) {
          reject(new Error(`ffprobe found no duration in ${path}`));
          return;
        }
        resolve(seconds);
      },
    );
  });
}

/**
 * Duration from the file size when the encoding is constant-rate and known (the formats we request
 * from Azure): the fallback when ffprobe is missing.
 */
export async function constantBitrateDuration(path: string, bytesPerSecond: number, headerBytes = 0): Promise<number> {
  const { size } = await stat(path);
  return Math.max(0, size - headerBytes) / bytesPerSecond;
}
