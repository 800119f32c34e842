import { planRenderAhead, type ScenePicture } from '../assembly/assemble-video.js';
import type { Checkpointed } from './checkpoint.js';
import type { Narration } from './narration.js';
import { renderOptionsFor, renderRequestFor } from './render-request.js';
import type { RunContext } from './run-context.js';
import { timed } from './step-timings.js';
import type { RunStory } from './steps/story-step.js';

/**
 * The render's parts made before all the pictures are (see planRenderAhead): the soundtrack once the
 * narration and the music are ready, then each scene's segment as its picture is painted, one at a
 * time, on the core the painting (this process's thread) leaves free. When the pictures are done the
 * render takes over: `stop` drops what has not started, and the render waits for what is running.
 * Never fails the job: whatever is not made ahead the render makes.
 */
interface RenderAheadQueue {
  picture(index: number, picture: ScenePicture): void;
  stop(): void;
  /** Settles when nothing made ahead is running. */
  idle(): Promise<void>;
}

export function renderAheadQueue(
  ctx: RunContext,
  story: RunStory,
  voice: Promise<Checkpointed<Narration>>,
  musicBed: Promise<string | null>,
): RenderAheadQueue {
  const { options } = ctx;
  const noop: RenderAheadQueue = { picture: () => undefined, stop: () => undefined, idle: () => Promise.resolve() };
  if (!(options.renderAhead ?? !options.assemble)) return noop;
  // The pictures' paths are not known yet: the plan names placeholders, and each scene gets its own.
  const placeholders = story.scenes.map(() => ({ imagePath: '' }));
  const plan = Promise.all([voice, musicBed]).then(([narration, bed]) =>
    planRenderAhead(renderRequestFor(ctx, narration.output, placeholders, bed), renderOptionsFor(ctx)),
  );
  plan.catch(() => undefined);
  const queue: Array<() => Promise<void>> = [];
  let running: Promise<void> | null = null;
  let stopped = false;
  const pump = () => {
    if (running || stopped) return;
    const next = queue.shift();
    if (!next) return;
    running = next()
      .catch(() => undefined)
      .finally(() => {
        running = null;
        pump();
      });
  };
  queue.push(() => timed('video: soundtrack', options.onTiming, async () => (await plan).soundtrack()));
  pump();
  return {
    picture(index, picture) {
      if (stopped) return;
      queue.push(async () => (await plan).scene(index, picture));
      pump();
    },
    stop() {
      stopped = true;
      queue.length = 0;
    },
    idle: () => running ?? Promise.resolve(),
  };
}
