import { existsSync, statSync } from 'node:fs';
import type { GenerationOutput, GenerationRun } from '../providers/types.js';
import { warmSourceTelling } from '../story/told-apart.js';
import { toGenerationError } from './generation-error.js';
import { renderAheadQueue } from './render-ahead.js';
import { wantsResearch } from './research.js';
import { createRunContext, type RunGenerationOptions } from './run-context.js';
import { imagesStep } from './steps/images-step.js';
import { musicBedFor } from './steps/music-bed-step.js';
import { researchStep } from './steps/research-step.js';
import { setupStep } from './steps/setup-step.js';
import { storyStep } from './steps/story-step.js';
import { videoStep } from './steps/video-step.js';
import { voiceStep } from './steps/voice-step.js';
import { postKitFor } from './video-post-kit.js';

export type { RunGenerationOptions } from './run-context.js';

/**
 * Topic in, MP4 out: setup → story → voice → images → video. Every step records its output in a
 * manifest in the job's workspace, keyed by a hash of its inputs, so running the same job again
 * (after a crash or a restart) reuses what is done and loses at most the step that was in flight.
 */
export async function runGeneration(run: GenerationRun, options: RunGenerationOptions = {}): Promise<GenerationOutput> {
  const started = performance.now();
  const ctx = createRunContext(run, options);
  // A source or an article is told in a sandbox thread: it is loaded meanwhile, off the story step.
  const { params, providers } = ctx;
  const toldApart = params.source ? params.source.kind !== 'script' : Boolean(providers.research) && wantsResearch(params);
  if (providers.story.name === 'offline' && toldApart && !run.storyboard) warmSourceTelling();
  // Research waits on Wikipedia while setup measures the voice: neither needs the other.
  const researching = researchStep(ctx);
  researching.catch(() => undefined);
  const setup = await setupStep(ctx);
  const research = await researching;
  const article = research.article;
  const story = await storyStep(ctx, setup, article);
  // Voice and pictures both need only the story, so they run at once: with real providers both wait
  // on the network, offline both are mostly single-threaded. If one fails the other still finishes
  // and checkpoints its artefacts, which a retry of the job then reuses.
  // The music bed needs only the job's mood, so it is made meanwhile rather than after both.
  const musicBed = musicBedFor(ctx);
  musicBed.catch(() => undefined);
  const voice = voiceStep(ctx, story);
  const ahead = renderAheadQueue(ctx, story.output, voice, musicBed);
  const pictures = imagesStep(ctx, story, setup, article, (index, picture) => ahead.picture(index, picture));
  const [narrationOutcome, imagesOutcome] = await Promise.allSettled([voice, pictures]);
  ahead.stop();
  if (narrationOutcome.status === 'rejected' || imagesOutcome.status === 'rejected') {
    // What runs ahead ends before the job fails, so no ffmpeg outlives the run that started it.
    await ahead.idle();
    throw narrationOutcome.status === 'rejected' ? narrationOutcome.reason : (imagesOutcome as PromiseRejectedResult).reason;
  }
  // The render waits for what runs ahead only where it needs it, not before it starts.
  const video = await videoStep(ctx, story, narrationOutcome.value, imagesOutcome.value, musicBed, article).finally(() => ahead.idle());

  if (!existsSync(video.output.videoPath)) {
    throw toGenerationError('video', new Error(`The finished video is missing from the workspace (${video.output.videoPath})`));
  }
  // The version took as long as the whole run; what the render drew and reused is its own.
  const renderStats = { ...video.output.renderStats, seconds: (performance.now() - started) / 1000 };
  const post = postKitFor(ctx.params, story.output, video.output);
  // Whether the story was told from Wikipedia, and if not why: the job's result says it (no silent filler).
  const told = research.outcome ? { researchOutcome: research.outcome } : {};
  return { ...video.output, renderStats, sizeBytes: statSync(video.output.videoPath).size, post, ...told };
}
