import { describe, expect, it } from 'vitest';
import { createExternalMessageListener, createInternalMessageListener, isAllowedWebPage, isOwnPage } from './runtime-messages.js';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const CODE = 'x'.repeat(43);

function collect() {
  const replies: unknown[] = [];
  let done: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (done = resolve));
  return { replies, settled, reply: (r: unknown) => (replies.push(r), done()) };
}

describe('runtime messages', () => {
  it('trusts only this extension’s pages', () => {
    expect(isOwnPage({ id: ID, url: `chrome-extension://${ID}/src/popup/index.html` }, ID)).toBe(true);
    expect(isOwnPage({ id: ID, url: 'https://evil.test/' }, ID)).toBe(false);
    expect(isOwnPage({ id: 'other', url: `chrome-extension://other/x` }, ID)).toBe(false);
  });

  it('trusts only the allowed web origins', () => {
    expect(isAllowedWebPage({ origin: 'http://127.0.0.1:8181' }, ['http://127.0.0.1:8181'])).toBe(true);
    expect(isAllowedWebPage({ url: 'http://127.0.0.1:8181/settings' }, ['http://127.0.0.1:8181'])).toBe(true);
    expect(isAllowedWebPage({ origin: 'http://127.0.0.1:9999' }, ['http://127.0.0.1:8181'])).toBe(false);
    expect(isAllowedWebPage({}, ['http://127.0.0.1:8181'])).toBe(false);
  });

  it('routes valid internal requests and answers asynchronously', async () => {
    const seen: unknown[] = [];
    const listener = createInternalMessageListener(ID, async (request) => (seen.push(request), { ok: true, jobId: 'j1' }));
    const { replies, settled, reply } = collect();
    const keepOpen = listener({ type: 'cancel', jobId: 'j1' }, { id: ID, url: `chrome-extension://${ID}/src/popup/index.html` }, reply);
    expect(keepOpen).toBe(true);
    await settled;
    expect(seen).toEqual([{ type: 'cancel', jobId: 'j1' }]);
    expect(replies).toEqual([{ ok: true, jobId: 'j1' }]);
  });

  it('refuses malformed requests and strangers, and reports handler errors', async () => {
    const listener = createInternalMessageListener(ID, async () => {
      throw new Error('Sign in to continue');
    });
    const own = { id: ID, url: `chrome-extension://${ID}/src/popup/index.html` };
    const bad = collect();
    expect(listener({ type: 'submit', params: { topic: '' } }, own, bad.reply)).toBe(false);
    expect(bad.replies).toEqual([{ ok: false, error: 'Unknown request' }]);
    expect(listener({ type: 'refresh' }, { id: ID, url: 'https://evil.test' }, () => undefined)).toBe(false);
    const failing = collect();
    listener({ type: 'refresh' }, own, failing.reply);
    await failing.settled;
    expect(failing.replies).toEqual([{ ok: false, error: 'Sign in to continue' }]);
  });

  it('accepts a hand-off only from an allowed origin', async () => {
    const handled: unknown[] = [];
    const listener = createExternalMessageListener(['http://127.0.0.1:8181'], async (request) => (handled.push(request), { ok: true }));
    const stranger = collect();
    listener({ type: 'handoff', code: CODE }, { origin: 'https://evil.test' }, stranger.reply);
    expect(stranger.replies).toEqual([{ ok: false, error: 'This site may not talk to the extension' }]);
    const allowed = collect();
    listener({ type: 'handoff', code: CODE }, { origin: 'http://127.0.0.1:8181' }, allowed.reply);
    await allowed.settled;
    expect(handled).toEqual([{ type: 'handoff', code: CODE }]);
    const token = collect();
    listener({ type: 'handoff', token: 'long-lived' }, { origin: 'http://127.0.0.1:8181' }, token.reply);
    expect(token.replies).toEqual([{ ok: false, error: 'Unknown request' }]);
  });
});
