export { PlanArea } from './plan-area.js';
export { PricingDialog, preloadPricingDialog } from './pricing-dialog-lazy.js';
export {
  useCanGenerate,
  useSubscription,
  useStorageStats,
  type CanGenerateState,
  type SubscriptionState,
} from '../shared/billing/billing-hooks.js';
export { usePricingCurrency } from '../shared/billing/pricing-hooks.js';
export { planCardState } from './plan-card-state.js';
export { formatPlanDate, formatPrice } from '../shared/billing/billing-format.js';
