import { CAPTION_STYLES, DURATIONS, STORY_STYLES, UNLIMITED_VIDEOS, VIDEO_LANGUAGES } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { PLANS } from './plans.js';

/**
 * Every feature a plan card sells, with what makes it true. A feature not listed here is a claim
 * nothing checks, and fails the test (the cards once sold "Voices in all 10 narration
 * languages", "Custom styles and prompts", "Chrome extension access" and formats free accounts had too).
 */
const VERIFIED_CLAIMS: Array<{ pattern: RegExp; holds: (plan: (typeof PLANS)[number], match: RegExpMatchArray) => boolean }> = [
  { pattern: /^(\d+) videos per month$/, holds: (plan, m) => plan.videoLimit === Number(m[1]) },
  { pattern: /^Unlimited videos$/, holds: (plan) => plan.videoLimit === UNLIMITED_VIDEOS },
  { pattern: /^30, 60 and 90 second videos$/, holds: () => DURATIONS.join() === '30,60,90' },
  {
    pattern: /^All (\d+) video languages and (\d+) story styles$/,
    holds: (_, m) => VIDEO_LANGUAGES.length === Number(m[1]) && STORY_STYLES.length === Number(m[2]),
  },
  { pattern: /^Word-timed captions in (\d+) styles$/, holds: (_, m) => CAPTION_STYLES.length === Number(m[1]) },
  // Support is a promise of the people behind the product, not a product feature to gate.
  { pattern: /^(Email|Priority) support$/, holds: () => true },
];

describe('plan features', () => {
  it('claims only what the product gives every subscriber of that plan', () => {
    for (const plan of PLANS) {
      for (const feature of plan.features) {
        const claim = VERIFIED_CLAIMS.map((candidate) => ({ candidate, match: feature.match(candidate.pattern) })).find(
          (entry) => entry.match,
        );
        expect(claim, `${plan.id}: "${feature}" is not a verified claim`).toBeDefined();
        expect(claim!.candidate.holds(plan, claim!.match!), `${plan.id}: "${feature}" is not true`).toBe(true);
      }
    }
  });

  it('no longer sells what free accounts have or the product lacks', () => {
    const all = PLANS.flatMap((plan) => plan.features).join('\n');
    expect(all).not.toMatch(/10 narration languages|Custom styles|Chrome extension|Portrait, landscape|API access/);
  });
});
