import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from './constants.js';
import { WEB_SHELL, WEB_SHELL_BOOT_SCRIPT, type WebShellBootRequests } from './web-shell.js';

/** Runs the boot script against a page at `path` with `stored` under the auth store key; returns <html>'s classes. */
function boot(path: string, stored: string | null | Error): string[] {
  return run(path, stored).classes;
}

function run(path: string, stored: string | null | Error) {
  const classes: string[] = [];
  const requests: Array<{ url: string; init: { headers: Record<string, string> } }> = [];
  const window: Record<string, unknown> = {};
  const fetch = (url: string, init: { headers: Record<string, string> }) => {
    requests.push({ url, init });
    return Promise.resolve({ status: 200 });
  };
  const localStorage = {
    getItem: (key: string) => {
      if (stored instanceof Error) throw stored;
      return key === STORAGE_KEYS.authStore ? stored : null;
    },
  };
  const document = { documentElement: { classList: { add: (name: string) => classes.push(name) } } };
  new Function('location', 'localStorage', 'document', 'window', 'fetch', WEB_SHELL_BOOT_SCRIPT)({ pathname: path }, localStorage, document, window, fetch);
  return { classes, requests, window };
}

const session = (token: string | null) => JSON.stringify({ state: { user: null, token, apiKey: null, isAuthenticated: token !== null }, version: 0 });

describe('index.html boot script', () => {
  it("leaves the prerendered studio for a visitor on the studio's paths", () => {
    for (const path of ['/', '/studio', '/generate', '/studio/']) expect(boot(path, null)).toEqual([]);
    expect(boot('/', session(null))).toEqual([]);
  });

  it('shows the splash when a session is stored, whatever the path', () => {
    expect(boot('/', session('token-1'))).toEqual([WEB_SHELL.splashClass]);
    expect(boot('/videos', session('token-1'))).toEqual([WEB_SHELL.splashClass]);
  });

  it('starts the session check for a stored session and leaves it for the app, and starts nothing for a visitor', async () => {
    const signedIn = run('/videos', session('token-1'));
    expect(signedIn.requests).toEqual([{ url: WEB_SHELL.bootProfilePath, init: { headers: { Accept: 'application/json', Authorization: 'Bearer token-1' } } }]);
    const left = signedIn.window[WEB_SHELL.bootRequestsGlobal] as WebShellBootRequests;
    expect(left.profile?.token).toBe('token-1');
    await expect(left.profile?.response).resolves.toEqual({ status: 200 });

    const visitor = run('/', session(null));
    expect(visitor.requests).toEqual([]);
    expect(visitor.window[WEB_SHELL.bootRequestsGlobal]).toBeUndefined();
  });

  it("shows the splash on pages that are not the visitor's studio", () => {
    for (const path of ['/login', '/pricing', '/reset-password', '/verify-email']) expect(boot(path, null)).toEqual([WEB_SHELL.splashClass]);
  });

  it('shows the splash when storage cannot be read or holds something else', () => {
    expect(boot('/', new Error('SecurityError'))).toEqual([WEB_SHELL.splashClass]);
    expect(boot('/', '{not json')).toEqual([WEB_SHELL.splashClass]);
  });
});
