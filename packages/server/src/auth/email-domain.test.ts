import { describe, expect, it } from 'vitest';
import { isConfusableDomain } from './email-domain.js';

describe('isConfusableDomain', () => {
  it('passes ordinary and single-script international domains', () => {
    for (const email of ['a@example.com', 'a@mail.example.co.uk', 'a@例え.jp', 'a@пример.рф', 'a@bücher.de'])
      expect(isConfusableDomain(email), email).toBe(false);
  });
  it('refuses mixed-script, whole-script look-alike, punycode and fullwidth domains', () => {
    for (const email of ['a@pаypal.com', 'a@раура.com', 'a@xn--pypal-4ve.com', 'a@ｅｘａｍｐｌｅ.com', 'a@gοogle.com'])
      expect(isConfusableDomain(email), email).toBe(true);
  });
});
