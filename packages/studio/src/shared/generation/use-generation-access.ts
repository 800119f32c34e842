// The hooks file, not the billing barrel: the embedded studio must not pull in the pricing UI.
import { useCanGenerate, useSubscription } from '../billing/billing-hooks.js';
import { useAuth } from '../../services.js';
import { generationAccess, type GenerationAccess } from './generation-access.js';

export type { GenerationAccess } from './generation-access.js';

/** The billing answers the generate form needs, from the studio's query cache. */
export function useGenerationAccess(): GenerationAccess {
  const signedIn = useAuth((s) => s.isAuthenticated);
  const canGenerate = useCanGenerate();
  const subscriptionState = useSubscription();
  return generationAccess({
    signedIn,
    subscription: subscriptionState.data?.subscription ?? null,
    canGenerate: canGenerate.data,
    loading: subscriptionState.isLoading || canGenerate.isLoading,
    check: canGenerate.check,
  });
}
