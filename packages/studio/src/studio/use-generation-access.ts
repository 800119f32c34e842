// The hooks file, not the billing barrel: the embedded studio must not pull in the pricing UI.
import { useCanGenerate, useSubscription } from '../billing/billing-hooks.js';
import { useAuth } from '../services.js';

export interface GenerationAccess {
  /** 60 and 90 s are locked without a subscription, or while the next video is the free one. */
  longDurationsLocked: boolean;
  isFreeVideo: boolean;
  /** False while the subscription or the can-generate answer is still loading. */
  settled: boolean;
  /** GET /payments/can-generate?duration= before a submit: the fresh answer, or null when the call failed. */
  check: ReturnType<typeof useCanGenerate>['check'];
}

/** The billing answers the generate form needs (spec sections 5 and 6). */
export function useGenerationAccess(): GenerationAccess {
  const signedIn = useAuth((s) => s.isAuthenticated);
  const canGenerate = useCanGenerate();
  const subscriptionState = useSubscription();
  const subscription = subscriptionState.data?.subscription ?? null;
  const isFreeVideo = canGenerate.data?.isFreeVideo ?? false;
  const hasSubscription = subscription !== null && subscription.status !== 'expired';
  const settled = !signedIn || (!subscriptionState.isLoading && !canGenerate.isLoading);
  return { isFreeVideo, settled, longDurationsLocked: !signedIn || !hasSubscription || isFreeVideo, check: canGenerate.check };
}
