export { PlanArea } from './plan-area.js';
export { PricingPage } from './pricing-page.js';
export { PricingDialog } from './pricing-dialog.js';
export { useCanGenerate, useSubscription, usePricingCurrency, useStorageStats, type CanGenerateState, type SubscriptionState } from './billing-hooks.js';
export { planCardState } from './plan-card-state.js';
export { formatPlanDate, formatPrice } from './billing-format.js';
