import { execFile } from 'node:child_process';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CancelledError } from '../errors.js';

const run = promisify(execFile);

/**
 * A voice's WAV written at `outputPath`, or encoded to MP3 when the path asks for one (through a
 * temporary WAV, renamed into place once whole). A failed encode throws `encodeFailed(error)`; a
 * cancelled one, CancelledError.
 */
export async function writeVoiceAudio(
  outputPath: string,
  wav: Buffer,
  options: { ffmpegPath: string; signal?: AbortSignal | undefined; encodeFailed: (error: unknown) => Error },
): Promise<void> {
  const { signal } = options;
  await mkdir(path.dirname(outputPath), { recursive: true });
  if (path.extname(outputPath).toLowerCase() !== '.mp3') {
    await writeFile(outputPath, wav);
    return;
  }
  const wavPath = `${outputPath}.${process.pid}.${Date.now()}.wav`;
  const partialPath = `${outputPath}.partial.mp3`;
  await writeFile(wavPath, wav);
  try {
    await run(options.ffmpegPath, ['-y', '-v', 'error', '-i', wavPath, '-codec:a', 'libmp3lame', '-q:a', '3', partialPath], { signal });
    await rename(partialPath, outputPath);
  } catch (error) {
    if (signal?.aborted) throw new CancelledError();
    throw options.encodeFailed(error);
  } finally {
    await rm(wavPath, { force: true });
    await rm(partialPath, { force: true });
  }
}
