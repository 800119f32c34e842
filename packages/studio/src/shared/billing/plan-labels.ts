import { PLAN_NAMES, type PlanId } from '@reelsmith/contracts';

/** A plan as the studio names it, the free tier included. */
export const PLAN_LABELS: Readonly<Record<PlanId | 'free', string>> = { free: 'Free', ...PLAN_NAMES };
