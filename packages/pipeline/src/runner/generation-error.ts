import type { PipelineStep } from '@reelsmith/contracts';
import { MissingCaptionFontError } from '../assembly/caption-fonts.js';
import { MissingFfmpegFilterError } from '../assembly/ffmpeg-binary.js';
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
  // The server is missing something; retrying cannot help, and the cause (with what to install) goes to the operator's log.
  if (error instanceof MissingCaptionFontError) {
    return new GenerationError(
      step,
      'Captions in this language cannot be drawn on this server yet. Turn captions off to make the video now, or try again later.',
      false,
      { cause: error },
    );
  }
  if (error instanceof MissingFfmpegFilterError) {
    return new GenerationError(
      step,
      'This server cannot draw captions yet. Turn captions off to make the video now, or try again later.',
      false,
      { cause: error },
    );
  }
  if (error instanceof FfmpegError) {
    return new GenerationError(step, `Something went wrong while ${STEP_ACTIVITY[step]} (ffmpeg failed). Please try again.`, true, {
      cause: error,
    });
  }
  return new GenerationError(step, `Something went wrong while ${STEP_ACTIVITY[step]}. Please try again.`, true, { cause: error });
}
