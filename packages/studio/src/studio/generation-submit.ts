import { MESSAGES, VALIDATION_MESSAGES, type GenerationParams, type VoiceProviderId } from '@reelsmith/contracts';
import { ApiError, errorMessage, isOffline } from '../api/api-client.js';
import { toast } from '../toaster.js';
import type { GenerationAccess } from '../shared/generation/generation-access.js';
import { generationRequest, type GenerationFormValues, type SubmitPhase } from '../shared/generation/generation-form-model.js';

export interface GenerationSubmit {
  values: GenerationFormValues;
  voiceProvider?: VoiceProviderId;
  access: Pick<GenerationAccess, 'check'>;
  /** Sends the request: the web's job service, or the extension's background worker. */
  send(params: GenerationParams): Promise<unknown>;
  setPhase(phase: SubmitPhase): void;
  /** The server's reason this user may not generate now (the caller offers the plans). */
  refused(reason: string): void;
}

/** What a failed send says: the server's words, which the extension's worker relays as a plain Error. */
function sendFailure(error: unknown): string {
  if (error instanceof ApiError) return errorMessage(error, MESSAGES.submitFailed);
  return error instanceof Error && error.message ? error.message : MESSAGES.submitFailed;
}

/**
 * The one submit flow of every generate form (studio, side panel, embed and popup): a valid request,
 * online, allowed by the plan for its duration, then sent. Offline it fails now and is never queued
 * to go out later by itself. Resolves true once the job is accepted.
 */
export async function submitGeneration({ values, voiceProvider, access, send, setPhase, refused }: GenerationSubmit): Promise<boolean> {
  const params = generationRequest(values, voiceProvider);
  if (!params) {
    if (!values.voice) toast.error(VALIDATION_MESSAGES.voiceRequiredOnSubmit);
    return false;
  }
  if (params.source?.kind === 'script') {
    const { scriptBudgetError } = await import('./script-budget.js');
    const tooLong = scriptBudgetError(params.source.text, params.duration);
    if (tooLong) {
      toast.error(tooLong);
      return false;
    }
  }
  if (isOffline()) {
    toast.error(MESSAGES.offline);
    return false;
  }
  setPhase('checking');
  const verdict = await access.check(params.duration);
  if (!verdict) {
    setPhase('idle');
    toast.error(isOffline() ? MESSAGES.offline : MESSAGES.canGenerateFailed);
    return false;
  }
  if (!verdict.canGenerate) {
    setPhase('idle');
    const reason = verdict.reason || MESSAGES.subscriptionRequired;
    refused(reason);
    toast.error(reason);
    return false;
  }
  setPhase('generating');
  try {
    await send(params);
  } catch (error) {
    setPhase('idle');
    toast.error(sendFailure(error));
    return false;
  }
  toast.success(MESSAGES.submitSuccess);
  setPhase('started');
  return true;
}
