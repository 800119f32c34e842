import { GST_RATE, PLAN_IDS, PLAN_NAMES, planIdSchema, UNLIMITED_VIDEOS, type Currency, type PlanId } from '@reelsmith/contracts';
import { z } from 'zod';

/**
 * The plan catalogue, as data validated at load. Prices are monthly, exclusive of GST, in minor units
 * (paise, cents) so no arithmetic ever touches a float. Priced for Indian creators first: the INR
 * tiers sit below the usual ₹499–₹1,999 band of Indian creator SaaS at the low end, and the USD tiers
 * follow the $5–$40 band of AI video tools sold abroad.
 */
/**
 * Plan features claim only what the product really gives (README, "Plan features"): plans differ in
 * their monthly videos (enforced by can-generate) and in the durations a free account lacks (60 and
 * 90 s, enforced server-side); everything else is the same for every account, so no card sells it as
 * a paid extra. plan-features.test.ts checks each claim against the product's own constants.
 */
const SHARED_FEATURES = [
  '30, 60 and 90 second videos',
  'All 7 video languages and 20 story styles',
  'Word-timed captions in 5 styles',
] as const;

const PLAN_DATA = [
  {
    id: 'essentials_plan',
    name: PLAN_NAMES.essentials_plan,
    prices: { INR: 19_900, USD: 499 },
    videoLimit: 10,
    features: ['10 videos per month', ...SHARED_FEATURES],
  },
  {
    id: 'starter_plan',
    name: PLAN_NAMES.starter_plan,
    prices: { INR: 49_900, USD: 999 },
    videoLimit: 30,
    features: ['30 videos per month', ...SHARED_FEATURES, 'Email support'],
  },
  {
    id: 'basic_plan',
    name: PLAN_NAMES.basic_plan,
    prices: { INR: 99_900, USD: 1_999 },
    videoLimit: 75,
    features: ['75 videos per month', ...SHARED_FEATURES, 'Email support'],
  },
  {
    id: 'pro_plan',
    name: PLAN_NAMES.pro_plan,
    prices: { INR: 1_99_900, USD: 3_999 },
    videoLimit: UNLIMITED_VIDEOS,
    features: ['Unlimited videos', ...SHARED_FEATURES, 'Priority support'],
  },
] as const;

const minorUnits = z.number().int().positive();

const planDefinitionSchema = z.object({
  id: planIdSchema,
  name: z.string().min(1),
  prices: z.object({ INR: minorUnits, USD: minorUnits }),
  videoLimit: z
    .number()
    .int()
    .refine((limit) => limit === UNLIMITED_VIDEOS || limit > 0, 'videoLimit must be -1 or positive'),
  features: z.array(z.string().min(1)).min(4),
});
export type PlanDefinition = z.infer<typeof planDefinitionSchema>;

const catalogueSchema = z
  .array(planDefinitionSchema)
  .refine((plans) => plans.map((plan) => plan.id).join() === PLAN_IDS.join(), 'plans must list every plan id in tier order')
  .refine(
    (plans) =>
      plans.every(
        (plan, index) => index === 0 || (plans[index - 1]!.prices.INR < plan.prices.INR && plans[index - 1]!.prices.USD < plan.prices.USD),
      ),
    'a higher tier must cost more in every currency (proration relies on it)',
  );

export const PLANS: readonly PlanDefinition[] = catalogueSchema.parse(PLAN_DATA);

export function getPlan(id: PlanId): PlanDefinition {
  const plan = PLANS.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

/** Position in the tier order: essentials_plan 0 … pro_plan 3. */
export function planRank(id: PlanId): number {
  return PLAN_IDS.indexOf(id);
}

/** GST basis points, from the shared rate (18 % → 1800), so the rounding below stays in integers. */
const GST_BASIS_POINTS = Math.round(GST_RATE * 10_000);

/** Only INR prices carry Indian GST; USD buyers are billed as exports without it. */
export function hasGst(currency: Currency): boolean {
  return currency === 'INR';
}

/** GST on an amount in minor units, rounded half up to the nearest paisa. */
export function gstOn(amountMinor: number, currency: Currency): number {
  if (!hasGst(currency)) return 0;
  return Math.floor((amountMinor * GST_BASIS_POINTS + 5_000) / 10_000);
}

export interface PriceBreakdown {
  base: number;
  gst: number;
  total: number;
}

export function priceWithTax(amountMinor: number, currency: Currency): PriceBreakdown {
  const gst = gstOn(amountMinor, currency);
  return { base: amountMinor, gst, total: amountMinor + gst };
}

/** Minor to major units for the API's display fields (19_900 → 199, 3_582 → 35.82). */
export function toMajor(amountMinor: number): number {
  return amountMinor / 100;
}
