import { describe, expect, it } from 'vitest';
import { isPublicAddress, PRIVATE_ADDRESS_MESSAGE, refuseUnlessPublic } from './webhook-address.js';

describe('webhook addresses', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:10.0.0.1',
    '224.0.0.1',
    '::7f00:1',
    '::127.0.0.1',
    '::a00:1',
    '::808:808',
    '::',
  ])('treats %s as not public', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('treats %s as public', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  it('refuses URLs whose host is or resolves to a private address, unless allowed', async () => {
    expect(await refuseUnlessPublic('http://169.254.169.254/latest', false)).toBe(PRIVATE_ADDRESS_MESSAGE);
    expect(await refuseUnlessPublic('http://localhost:3000/hook', false)).toBe(PRIVATE_ADDRESS_MESSAGE);
    expect(await refuseUnlessPublic('http://[::1]/hook', false)).toBe(PRIVATE_ADDRESS_MESSAGE);
    expect(await refuseUnlessPublic('http://[::7f00:1]/hook', false)).toBe(PRIVATE_ADDRESS_MESSAGE);
    expect(await refuseUnlessPublic('http://[::127.0.0.1]/hook', false)).toBe(PRIVATE_ADDRESS_MESSAGE);
    expect(await refuseUnlessPublic('http://[::ffff:8.8.8.8]/hook', false)).toBeNull();
    expect(await refuseUnlessPublic('http://8.8.8.8/hook', false)).toBeNull();
    expect(await refuseUnlessPublic('http://localhost:3000/hook', true)).toBeNull();
  });
});
