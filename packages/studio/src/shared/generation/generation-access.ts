import type { CanGenerateResponse, SubscriptionResponse } from '@reelsmith/contracts';

export interface GenerationAccess {
  /** 60 and 90 s are locked without a subscription, or while the next video is the free one. */
  longDurationsLocked: boolean;
  isFreeVideo: boolean;
  /** False while the subscription or the can-generate answer is still loading. */
  settled: boolean;
  /** GET /payments/can-generate?duration= before a submit: the fresh answer, or null when the call failed. */
  check(duration?: number): Promise<CanGenerateResponse | null>;
}

/**
 * The billing answers the generate form needs (plan, quota, free limits), from whichever source holds
 * them: the studio's query cache or the popup's own requests.
 */
export function generationAccess(input: {
  signedIn: boolean;
  subscription: SubscriptionResponse['subscription'];
  canGenerate: CanGenerateResponse | null;
  loading: boolean;
  check: GenerationAccess['check'];
}): GenerationAccess {
  const { signedIn, subscription, canGenerate } = input;
  const isFreeVideo = canGenerate?.isFreeVideo ?? false;
  const hasSubscription = subscription !== null && subscription.status !== 'expired';
  return {
    isFreeVideo,
    settled: !signedIn || !input.loading,
    longDurationsLocked: !signedIn || !hasSubscription || isFreeVideo,
    check: input.check,
  };
}
