import { join } from 'node:path';
import { resolveMusicMood } from '@reelsmith/contracts';
import { writeMusicBed } from '../../music/music-bed.js';
import { toGenerationError } from '../generation-error.js';
import type { RunContext } from '../run-context.js';
import { timed } from '../step-timings.js';

/** The generated music bed the job's mood asks for (null: the creator's own track, or none). */
export async function musicBedFor(ctx: RunContext): Promise<string | null> {
  const { run, params, options, artefactDir } = ctx;
  const mood = run.music ? null : resolveMusicMood(params.music, params.style);
  if (!mood) return null;
  try {
    return await timed('music', options.onTiming, () => writeMusicBed(mood, join(artefactDir, 'music', `${mood}.wav`)));
  } catch (error) {
    throw toGenerationError('video', error);
  }
}
