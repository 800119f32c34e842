import { describe, expect, it } from 'vitest';
import { checkScaleServices } from './require-scale-services.js';

describe('the scale-mode suites in CI', () => {
  it('may skip outside CI', async () => {
    await expect(checkScaleServices({}, async () => false)).resolves.toBeUndefined();
  });

  it('fail the run in CI without TEST_REDIS_URL, saying how to start Redis', async () => {
    await expect(checkScaleServices({ CI: 'true' }, async () => true)).rejects.toThrow(/TEST_REDIS_URL is not.*redis-server/);
  });

  it('fail the run in CI when Redis does not answer', async () => {
    await expect(checkScaleServices({ CI: 'true', TEST_REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(/no Redis answers/);
  });

  it('pass in CI when Redis answers', async () => {
    await expect(checkScaleServices({ CI: 'true', TEST_REDIS_URL: 'redis://127.0.0.1:6379' }, async () => true)).resolves.toBeUndefined();
  });
});
