import type { Currency } from '@reelsmith/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../services.js';
import { billingQueryKeys } from './billing-hooks.js';
import { detectCurrency } from './currency-detection.js';

// Apart from billing-hooks.ts, which the studio's first screen uses: only the plan views (loaded on
// demand) read plans and the pricing currency, so the currency detection stays out of the first load.

/** The pricing currency, detected once per app (server location, then browser heuristics); INR until known. */
export function usePricingCurrency(): [Currency, (currency: Currency) => void] {
  const api = useApi();
  const detected = useQuery({ queryKey: billingQueryKeys.currency, queryFn: () => detectCurrency(api), staleTime: Infinity, retry: 0 });
  const [chosen, setChosen] = useState<Currency | null>(null);
  return [chosen ?? detected.data ?? 'INR', setChosen];
}

export function usePlans(currency: Currency) {
  const api = useApi();
  return useQuery({ queryKey: billingQueryKeys.plans(currency), queryFn: () => api.call('plans', { query: { currency } }) });
}
