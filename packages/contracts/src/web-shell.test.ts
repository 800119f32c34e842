import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from './constants.js';
import { WEB_SHELL, WEB_SHELL_BOOT_SCRIPT, type WebShellBootRequests } from './web-shell.js';

/** Runs the boot script against a page at `path` with `stored` under the auth store key; returns <html>'s classes. */
function boot(path: string, stored: string | null | Error): string[] {
  return run(path, stored).classes;
}

interface Browser {
  userAgent: string;
  userAgentData?: { brands: Array<{ brand: string }>; mobile: boolean };
  /** The banner's stored dismissal for this session, if any. */
  dismissedBy?: string;
}

const DESKTOP_CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const FIREFOX: Browser = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' };

function run(path: string, stored: string | null | Error, browser: Browser = FIREFOX) {
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
  const sessionStorage = {
    getItem: (key: string) => (key === STORAGE_KEYS.extensionBannerDismissed ? (browser.dismissedBy ?? null) : null),
  };
  const navigator = { userAgent: browser.userAgent, userAgentData: browser.userAgentData };
  const document = { documentElement: { classList: { add: (name: string) => classes.push(name) } } };
  new Function('location', 'localStorage', 'sessionStorage', 'navigator', 'document', 'window', 'fetch', WEB_SHELL_BOOT_SCRIPT)(
    { pathname: path },
    localStorage,
    sessionStorage,
    navigator,
    document,
    window,
    fetch,
  );
  return { classes, requests, window };
}

const session = (token: string | null) =>
  JSON.stringify({
    state: { user: token === null ? null : { id: 'user-1', name: 'Asha' }, token, apiKey: null, isAuthenticated: token !== null },
    version: 0,
  });

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
    expect(signedIn.requests).toEqual([
      { url: WEB_SHELL.bootProfilePath, init: { headers: { Accept: 'application/json', Authorization: 'Bearer token-1' } } },
    ]);
    const left = signedIn.window[WEB_SHELL.bootRequestsGlobal] as WebShellBootRequests;
    expect(left.profile?.token).toBe('token-1');
    await expect(left.profile?.response).resolves.toEqual({ status: 200 });

    const visitor = run('/', session(null));
    expect(visitor.requests).toEqual([]);
    expect(visitor.window[WEB_SHELL.bootRequestsGlobal]).toBeUndefined();
  });

  it("shows the splash on pages that are not the visitor's studio", () => {
    for (const path of ['/login', '/pricing', '/reset-password', '/verify-email'])
      expect(boot(path, null)).toEqual([WEB_SHELL.splashClass]);
  });

  it('shows the splash when storage cannot be read or holds something else', () => {
    expect(boot('/', new Error('SecurityError'))).toEqual([WEB_SHELL.splashClass]);
    expect(boot('/', '{not json')).toEqual([WEB_SHELL.splashClass]);
  });

  it("keeps the extension banner's place on desktop Chrome unless this user dismissed it this session, as the app decides", () => {
    const chrome: Browser = { userAgent: DESKTOP_CHROME_UA };
    expect(run('/', null, chrome).classes).toEqual([WEB_SHELL.bannerClass]);
    expect(run('/', null, { ...chrome, dismissedBy: WEB_SHELL.bannerVisitorKey }).classes).toEqual([]);
    // A dismissal by someone else does not count (the app clears it).
    expect(run('/', session('token-1'), { ...chrome, dismissedBy: WEB_SHELL.bannerVisitorKey }).classes).toEqual([
      WEB_SHELL.bannerClass,
      WEB_SHELL.splashClass,
    ]);
    expect(run('/', session('token-1'), { ...chrome, dismissedBy: 'user-1' }).classes).toEqual([WEB_SHELL.splashClass]);
  });

  it('keeps no place for the banner where it never shows: other browsers, Edge, Opera, phones', () => {
    expect(run('/', null).classes).toEqual([]);
    expect(run('/', null, { userAgent: `${DESKTOP_CHROME_UA} Edg/142.0.0.0` }).classes).toEqual([]);
    expect(run('/', null, { userAgent: `${DESKTOP_CHROME_UA} OPR/120.0.0.0` }).classes).toEqual([]);
    expect(
      run('/', null, {
        userAgent: 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36',
      }).classes,
    ).toEqual([]);
    // Client hints name the brand where the user-agent string does not.
    const hinted = (brands: string[], mobile = false): Browser => ({
      userAgent: DESKTOP_CHROME_UA,
      userAgentData: { brands: brands.map((brand) => ({ brand })), mobile },
    });
    expect(run('/', null, hinted(['Google Chrome', 'Chromium'])).classes).toEqual([WEB_SHELL.bannerClass]);
    expect(run('/', null, hinted(['Brave', 'Chromium'])).classes).toEqual([]);
    expect(run('/', null, hinted(['Google Chrome'], true)).classes).toEqual([]);
    expect(run('/', null, hinted(['Not A Brand'])).classes).toEqual([]);
  });
});
