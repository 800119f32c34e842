import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './verify-webhook.js';

const secret = 'whsec_test';
const body = JSON.stringify({
  id: 'evt_1',
  type: 'video.completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  data: { jobId: 'j1', status: 'completed', videoUrl: '/output/x/video.mp4' },
});
const sign = (t: number, raw = body, key = secret) => `t=${t},v1=${createHmac('sha256', key).update(`${t}.${raw}`).digest('hex')}`;
const now = 1_800_000_000_000;
const t = now / 1000;

describe('verifyWebhook', () => {
  it('returns the event for a correct signature', () => {
    expect(verifyWebhook(body, sign(t), secret, { now })).toMatchObject({ id: 'evt_1', type: 'video.completed', data: { jobId: 'j1' } });
    expect(verifyWebhook(Buffer.from(body), sign(t), secret, { now }).id).toBe('evt_1');
  });

  it.each([
    ['another secret', sign(t, body, 'whsec_other'), 'does not match'],
    ['another body', sign(t, body.replace('j1', 'j2')), 'does not match'],
    ['an old timestamp', sign(t - 301), 'outside the tolerance'],
    ['no header', '', 'Missing'],
    ['a malformed header', 'v1=abc', 'Malformed'],
  ])('refuses %s', (_, header, message) => {
    expect(() => verifyWebhook(body, header, secret, { now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(body, header, secret, { now })).toThrow(message);
  });

  it('refuses a signed body that is not a Reelsmith event', () => {
    expect(() => verifyWebhook('{"hello":1}', sign(t, '{"hello":1}'), secret, { now })).toThrow('not a Reelsmith event');
  });

  it('returns a batch.completed event, and refuses one whose data is not a batch', () => {
    const batch = JSON.stringify({
      id: 'evt_batch_completed_b1',
      type: 'batch.completed',
      createdAt: '2026-01-01T00:00:00.000Z',
      data: {
        batchId: 'b1',
        name: null,
        status: 'completed',
        counts: { total: 1, queued: 0, processing: 0, completed: 1, failed: 0, cancelled: 0 },
        rows: [{ index: 0, jobId: 'j1', status: 'completed', videoUrl: 'https://r.example/output/x/video.mp4' }],
      },
    });
    const event = verifyWebhook(batch, sign(t, batch), secret, { now });
    expect(event.type === 'batch.completed' && event.data.rows[0]?.jobId).toBe('j1');
    const videoShaped = body.replace('video.completed', 'batch.completed');
    expect(() => verifyWebhook(videoShaped, sign(t, videoShaped), secret, { now })).toThrow('not a Reelsmith event');
  });
});
