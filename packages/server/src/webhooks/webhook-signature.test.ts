import { describe, expect, it } from 'vitest';
import { signWebhookBody } from './webhook-signature.js';

describe('webhook signature', () => {
  it('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    // Known answer: printf '1700000000.{}' | openssl dgst -sha256 -hmac secret
    expect(signWebhookBody('secret', '{}', 1_700_000_000)).toBe(
      't=1700000000,v1=b8569b78799ff9e3cbff0fc2d63a33a2b57f3282abd07c37ae5e8e7d79a5f163',
    );
  });
});
