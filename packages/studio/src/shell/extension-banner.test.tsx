// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { EXTENSION_HANDOFF_MESSAGES, STORAGE_KEYS, WEB_SHELL } from '@reelsmith/contracts';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { isDesktopChromeBrowser, MemoryStorage, type ExtensionBridge } from '../platform.js';
import { renderWithStudio, testPlatform, testUser } from '../testing/render-studio.js';
import { DEFAULT_EXTENSION_STORE_URL, EXTENSION_BANNER_TEXT, ExtensionBanner } from './extension-banner.js';

afterEach(() => {
  cleanup();
  toast.remove();
});

const signedInStorage = () =>
  new MemoryStorage([
    [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 })],
  ]);

function bridge(
  installed: boolean,
  onCode: (code: string) => Promise<void> = async () => undefined,
): ExtensionBridge & { codes: string[] } {
  const codes: string[] = [];
  return {
    storeUrl: 'https://store.test/reelsmith',
    codes,
    isInstalled: async () => installed,
    sendHandoffCode: async (code) => (codes.push(code), onCode(code)),
  };
}

describe('ExtensionBanner', () => {
  it('greets visitors on desktop Chrome, links to the store and stays closed for the session', async () => {
    const opened: string[] = [];
    const session = new MemoryStorage();
    const platform = testPlatform({
      browser: { isDesktopChrome: () => true },
      sessionStorage: session,
      navigation: { openTab: (u) => void opened.push(u), reload: () => undefined },
    });
    const u = userEvent.setup();
    const first = renderWithStudio(<ExtensionBanner />, { platform });
    expect(screen.getByText(EXTENSION_BANNER_TEXT.visitor.title)).toBeInTheDocument();
    expect(screen.getByText(EXTENSION_BANNER_TEXT.visitor.body)).toBeInTheDocument();
    expect(document.body).toHaveClass('rs-has-extension-banner');
    await u.click(screen.getByRole('button', { name: EXTENSION_BANNER_TEXT.install }));
    expect(opened).toEqual([DEFAULT_EXTENSION_STORE_URL]);
    await u.click(screen.getByRole('button', { name: EXTENSION_BANNER_TEXT.close }));
    expect(screen.queryByRole('region', { name: 'Chrome extension' })).not.toBeInTheDocument();
    expect(document.body).not.toHaveClass('rs-has-extension-banner');
    first.unmount();
    renderWithStudio(<ExtensionBanner />, { platform });
    expect(screen.queryByRole('region', { name: 'Chrome extension' })).not.toBeInTheDocument();
  });

  it('shows again when the user changes', async () => {
    const session = new MemoryStorage([[STORAGE_KEYS.extensionBannerDismissed, 'visitor']]);
    const platform = testPlatform({ browser: { isDesktopChrome: () => true }, sessionStorage: session, storage: signedInStorage() });
    const rendered = renderWithStudio(<ExtensionBanner />, { platform });
    await act(() => rendered.services.authStore.persist.rehydrate());
    expect(await screen.findByText(EXTENSION_BANNER_TEXT.signedIn.title)).toBeInTheDocument();
    expect(screen.getByText(EXTENSION_BANNER_TEXT.signedIn.body)).toBeInTheDocument();
    expect(session.getItem(STORAGE_KEYS.extensionBannerDismissed)).toBeNull();
  });

  it("takes over the place the boot script kept for it: the bar's class moves to the app, or goes when the bar does not show", () => {
    document.documentElement.classList.add(WEB_SHELL.bannerClass);
    const shown = renderWithStudio(<ExtensionBanner />, {
      platform: testPlatform({ browser: { isDesktopChrome: () => true }, sessionStorage: new MemoryStorage() }),
    });
    expect(document.body).toHaveClass('rs-has-extension-banner');
    expect(document.documentElement).not.toHaveClass(WEB_SHELL.bannerClass);
    shown.unmount();

    // The boot script guessed wrong (the dismissal was made by this same visitor in another tab of the session).
    document.documentElement.classList.add(WEB_SHELL.bannerClass);
    renderWithStudio(<ExtensionBanner />, { platform: testPlatform({ browser: { isDesktopChrome: () => false } }) });
    expect(document.documentElement).not.toHaveClass(WEB_SHELL.bannerClass);
    expect(document.body).not.toHaveClass('rs-has-extension-banner');
  });

  it('is absent outside desktop Chrome and inside the extension', () => {
    renderWithStudio(<ExtensionBanner />, { platform: testPlatform({ browser: { isDesktopChrome: () => false } }) });
    expect(screen.queryByRole('region', { name: 'Chrome extension' })).not.toBeInTheDocument();
    cleanup();
    renderWithStudio(<ExtensionBanner />, { platform: testPlatform({ kind: 'extension', browser: { isDesktopChrome: () => true } }) });
    expect(screen.queryByRole('region', { name: 'Chrome extension' })).not.toBeInTheDocument();
  });

  it('connects an installed extension with a one-time code', async () => {
    const extension = bridge(true);
    const platform = testPlatform({ browser: { isDesktopChrome: () => true }, storage: signedInStorage(), extension });
    const u = userEvent.setup();
    const rendered = renderWithStudio(<ExtensionBanner />, {
      platform,
      handler: (r) =>
        r.path === '/auth/extension-handoff'
          ? { body: { code: 'c'.repeat(43), expiresAt: new Date(Date.now() + 60_000).toISOString() } }
          : undefined,
    });
    await act(() => rendered.services.authStore.persist.rehydrate());
    await u.click(await screen.findByRole('button', { name: EXTENSION_BANNER_TEXT.connect }));
    await waitFor(() => expect(extension.codes).toEqual(['c'.repeat(43)]));
    const request = rendered.requests.find((r) => r.path === '/auth/extension-handoff');
    expect(request?.method).toBe('POST');
    expect(request?.headers.Authorization).toBe('Bearer t');
    expect(await screen.findByText(EXTENSION_HANDOFF_MESSAGES.connected)).toBeInTheDocument();
  });

  it('reports the extension refusing the code', async () => {
    const extension = bridge(true, async () => {
      throw new Error(EXTENSION_HANDOFF_MESSAGES.invalidCode);
    });
    const platform = testPlatform({ browser: { isDesktopChrome: () => true }, storage: signedInStorage(), extension });
    const u = userEvent.setup();
    const rendered = renderWithStudio(<ExtensionBanner />, {
      platform,
      handler: (r) =>
        r.path === '/auth/extension-handoff' ? { body: { code: 'c'.repeat(43), expiresAt: new Date().toISOString() } } : undefined,
    });
    await act(() => rendered.services.authStore.persist.rehydrate());
    await u.click(await screen.findByRole('button', { name: EXTENSION_BANNER_TEXT.connect }));
    expect(await screen.findByText(EXTENSION_HANDOFF_MESSAGES.invalidCode)).toBeInTheDocument();
  });
});

describe('isDesktopChromeBrowser', () => {
  const chromeUa = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
  it('believes client hints over the user-agent string', () => {
    expect(
      isDesktopChromeBrowser({
        userAgent: chromeUa,
        userAgentData: { brands: [{ brand: 'Google Chrome' }, { brand: 'Chromium' }], mobile: false },
      }),
    ).toBe(true);
    expect(
      isDesktopChromeBrowser({
        userAgent: chromeUa,
        userAgentData: { brands: [{ brand: 'Microsoft Edge' }, { brand: 'Chromium' }], mobile: false },
      }),
    ).toBe(false);
    expect(
      isDesktopChromeBrowser({
        userAgent: chromeUa,
        userAgentData: { brands: [{ brand: 'Opera' }, { brand: 'Chromium' }], mobile: false },
      }),
    ).toBe(false);
    expect(isDesktopChromeBrowser({ userAgent: chromeUa, userAgentData: { brands: [{ brand: 'Google Chrome' }], mobile: true } })).toBe(
      false,
    );
  });
  it('falls back on the user-agent string', () => {
    expect(isDesktopChromeBrowser({ userAgent: chromeUa })).toBe(true);
    expect(isDesktopChromeBrowser({ userAgent: `${chromeUa} Edg/142.0.0.0` })).toBe(false);
    expect(isDesktopChromeBrowser({ userAgent: `${chromeUa} OPR/110.0` })).toBe(false);
    expect(isDesktopChromeBrowser({ userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/142.0 Mobile Safari/537.36' })).toBe(false);
    expect(isDesktopChromeBrowser({ userAgent: 'Mozilla/5.0 (Macintosh) Gecko/20100101 Firefox/130.0' })).toBe(false);
  });
});
