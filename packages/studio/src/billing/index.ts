export { PlanArea } from './plan-area.js';
export { PricingDialog, preloadPricingDialog } from './pricing-dialog-lazy.js';
export { useCanGenerate, useSubscription, useStorageStats, type CanGenerateState, type SubscriptionState } from './billing-hooks.js';
export { usePricingCurrency } from './pricing-hooks.js';
export { planCardState } from './plan-card-state.js';
export { formatPlanDate, formatPrice } from './billing-format.js';
