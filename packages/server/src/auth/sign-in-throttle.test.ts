import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle.js';

describe('SignInThrottle', () => {
  it('delays a failing (e-mail, address) pair more each time, but never the owner at a clean address', () => {
    let now = 0;
    const throttle = new SignInThrottle({ now: () => now });
    for (let i = 0; i < 3; i += 1) {
      expect(throttle.waitMs('owner@example.com', '10.0.0.9')).toBe(0);
      throttle.recordFailure('owner@example.com', '10.0.0.9');
    }
    expect(throttle.waitMs('owner@example.com', '10.0.0.9')).toBe(1000);
    now += 1000;
    throttle.recordFailure('owner@example.com', '10.0.0.9');
    expect(throttle.waitMs('owner@example.com', '10.0.0.9')).toBe(2000);
    // Guesses from a thousand addresses leave the owner's own address untouched.
    for (let i = 0; i < 1000; i += 1) throttle.recordFailure('owner@example.com', `10.1.${i >> 8}.${i & 255}`);
    expect(throttle.waitMs('owner@example.com', '192.168.1.5')).toBe(0);
  });

  it('delays an address that fails across many e-mails', () => {
    let now = 0;
    const throttle = new SignInThrottle({ now: () => now });
    for (let i = 0; i < 12; i += 1) throttle.recordFailure(`victim${i}@example.com`, '10.6.6.6');
    expect(throttle.waitMs('another@example.com', '10.6.6.6')).toBe(4000);
    now += 60 * 60_000 + 1;
    expect(throttle.waitMs('another@example.com', '10.6.6.6')).toBe(0);
  });
});
