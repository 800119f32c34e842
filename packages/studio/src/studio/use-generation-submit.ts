import type { GenerationParams, VoiceProviderId } from '@reelsmith/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { GenerationAccess } from '../shared/generation/generation-access.js';
import {
  isSubmitBlocked,
  submitButtonText,
  type GenerationFormValues,
  type SubmitPhase,
} from '../shared/generation/generation-form-model.js';
import { submitGeneration } from './generation-submit.js';

/** How long the button says "Starting..." after the job is accepted, so the press visibly landed. */
const STARTED_MS = 1000;

export interface GenerationSubmitOptions {
  signedIn: boolean;
  /** A generation this form started is still being sent (the web's job store knows; the popup does not). */
  generating: boolean;
  /** Number of the user's jobs still pending, queued or processing. */
  activeJobs: number;
  access: Pick<GenerationAccess, 'check'>;
  /** Sends the request: the web's job service, or the extension's background worker. */
  send(params: GenerationParams): Promise<unknown>;
  /** The server's reason this user may not generate now (the caller offers the plans). */
  refused(reason: string): void;
}

/**
 * The submit side of every generate form: the button's phase and text, whether it is blocked, and
 * `submit`, which runs the one submit flow and resolves true once the job is accepted.
 */
export function useGenerationSubmit({ signedIn, generating, activeJobs, access, send, refused }: GenerationSubmitOptions) {
  const [phase, setPhase] = useState<SubmitPhase>('idle');
  const startedTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (startedTimer.current) clearTimeout(startedTimer.current);
    },
    [],
  );

  const state = { signedIn, phase, generating, activeJobs };
  const blocked = isSubmitBlocked(state);
  const buttonText = submitButtonText(state);

  const submit = useCallback(
    async (values: GenerationFormValues, voiceProvider: VoiceProviderId | undefined): Promise<boolean> => {
      const submitted = await submitGeneration({ values, voiceProvider, access, send, setPhase, refused });
      if (submitted) startedTimer.current = setTimeout(() => setPhase('idle'), STARTED_MS);
      return submitted;
    },
    [access, send, refused],
  );

  return { phase, blocked, buttonText, submit };
}
