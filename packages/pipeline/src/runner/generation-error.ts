import type { PipelineStep } from '@reelsmith/contracts';
import { FfmpegError } from '../assembly/run-ffmpeg.js';
import { CancelledError, ProviderError } from '../errors.js';

const STEP_ACTIVITY: Record<PipelineStep, string> = {
  setup: 'preparing the job',
  story: 'writing the story',
  voice: 'recording the narration',
  images: 'creating the pictures',
  video: 'assembling the video',
};

/** A failed generation, with a message written for the creator; the cause stays for the logs. */
export class GenerationError extends Error {
  constructor(
    readonly step: PipelineStep,
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GenerationError';
  }
}

export function toGenerationError(step: PipelineStep, error: unknown): Error {
  if (error instanceof CancelledError || error instanceof GenerationError) return error;
  if (error instanceof ProviderError) return new GenerationError(step, error.message, error.retryable, { cause: error });
  if (error instanceof FfmpegError) {
    return new GenerationError(step, `Something went wrong while ${STEP_ACTIVITY[step]} (ffmpeg failed). Please try again.`, true, { cause: error });
  }
  return new GenerationError(step, `Something went wrong while ${STEP_ACTIVITY[step]}. Please try again.`, true, { cause: error });
}
