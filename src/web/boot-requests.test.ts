import { WEB_SHELL } from '@reelsmith/contracts';
import { describe, expect, it, vi } from 'vitest';
import { fetchWithBootRequests } from './boot-requests.js';

const answer = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));

describe('fetchWithBootRequests', () => {
  it("answers the app's first session check with the boot script's request, once", async () => {
    const network = vi.fn(() => answer({ from: 'network' }));
    const fetch = fetchWithBootRequests({ profile: { token: 'token-1', response: answer({ from: 'boot' }) } }, network);
    const init = { method: 'GET', headers: { Accept: 'application/json', Authorization: 'Bearer token-1' } };
    expect(await (await fetch(WEB_SHELL.bootProfilePath, init)).json()).toEqual({ from: 'boot' });
    expect(network).not.toHaveBeenCalled();
    // A later check is a fresh request: the boot answer may be old by then.
    expect(await (await fetch(WEB_SHELL.bootProfilePath, init)).json()).toEqual({ from: 'network' });
  });

  it('sends everything else, and a check with another token, to the network', async () => {
    const network = vi.fn(() => answer({ from: 'network' }));
    const boot = answer({ from: 'boot' });
    const fetch = fetchWithBootRequests({ profile: { token: 'token-1', response: boot } }, network);
    await fetch('/api/videos', { headers: { Authorization: 'Bearer token-1' } });
    await fetch(WEB_SHELL.bootProfilePath, { headers: { Authorization: 'Bearer token-2' } });
    await fetch(WEB_SHELL.bootProfilePath, { method: 'PUT', headers: { Authorization: 'Bearer token-1' } });
    expect(network).toHaveBeenCalledTimes(3);
    const afterwards = await fetch(WEB_SHELL.bootProfilePath, { headers: { Authorization: 'Bearer token-1' } });
    expect(await afterwards.json()).toEqual({ from: 'boot' });
  });

  it('is the plain fetch when the boot script started nothing', async () => {
    const network = vi.fn(() => answer({ from: 'network' }));
    await fetchWithBootRequests(undefined, network)(WEB_SHELL.bootProfilePath, { headers: { Authorization: 'Bearer token-1' } });
    expect(network).toHaveBeenCalledOnce();
  });
});
