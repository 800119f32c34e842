import { embedEventSchema } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { EMBED_EVENT_TYPES } from './embed-types.js';

describe('embed event types', () => {
  it("are exactly the contract's: the loader passes on every event the studio may post, and nothing else", () => {
    const contract = [...(embedEventSchema._zod.propValues?.type ?? [])].map(String);
    expect(contract.length).toBeGreaterThan(0);
    expect([...EMBED_EVENT_TYPES].sort()).toEqual(contract.sort());
  });
});
