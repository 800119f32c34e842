import { EXTENSION_HANDOFF_MESSAGES, STORAGE_KEYS, WEB_SHELL } from '@reelsmith/contracts';
import { useEffect, useState } from 'react';
import { toast } from '../toaster.js';
import { ApiError, errorMessage } from '../api/api-client.js';
import { usePlatform } from '../platform.js';
import { useApi, useAuth } from '../services.js';
import { CloseIcon } from '../ui/icons.js';
import { DEFAULT_EXTENSION_STORE_URL } from './extension-store-url.js';
import './extension-banner.css';

export { DEFAULT_EXTENSION_STORE_URL };

export const EXTENSION_BANNER_TEXT = {
  signedIn: { title: 'Try our Chrome Extension!', body: 'Generate videos directly from your browser.' },
  visitor: { title: 'Get our Chrome Extension!', body: 'Access features from your browser.' },
  install: 'Install Now',
  connect: 'Connect the extension',
  connecting: 'Connecting…',
  close: 'Dismiss the extension banner',
} as const;

const VISITOR = WEB_SHELL.bannerVisitorKey;
const BODY_CLASS = 'rs-has-extension-banner';

/**
 * The extension banner: a fixed bar on desktop Chrome only. Closing it lasts for the
 * browser session and for this user only: a different user (or signing in/out) sees it again.
 * When the extension is installed and the user is signed in, it offers to sign the extension in
 * through a one-time code instead of installing.
 */
export function ExtensionBanner() {
  const platform = usePlatform();
  const api = useApi();
  const userKey = useAuth((s) => (s.isAuthenticated && s.user ? s.user.id : VISITOR));
  const session = platform.sessionStorage;
  const [dismissedFor, setDismissedFor] = useState<string | null>(() => session?.getItem(STORAGE_KEYS.extensionBannerDismissed) ?? null);
  const [installed, setInstalled] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const eligible = platform.kind === 'web' && platform.browser.isDesktopChrome();

  // A dismissal made by someone else is cleared, so it never carries over to the next user.
  useEffect(() => {
    if (dismissedFor !== null && dismissedFor !== userKey) {
      session?.removeItem(STORAGE_KEYS.extensionBannerDismissed);
      setDismissedFor(null);
    }
  }, [dismissedFor, userKey, session]);

  useEffect(() => {
    if (!eligible || !platform.extension) return;
    let live = true;
    platform.extension.isInstalled().then(
      (yes) => live && setInstalled(yes),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [eligible, platform.extension]);

  const visible = eligible && dismissedFor !== userKey;
  // The shell moves down while the fixed bar shows (see extension-banner.css). Until now the boot
  // script's guess kept that place (no layout shift when the bar arrives); from here the app decides.
  useEffect(() => {
    if (visible) document.body.classList.add(BODY_CLASS);
    document.documentElement.classList.remove(WEB_SHELL.bannerClass);
    if (!visible) return;
    return () => document.body.classList.remove(BODY_CLASS);
  }, [visible]);

  if (!visible) return null;
  const signedIn = userKey !== VISITOR;
  const text = signedIn ? EXTENSION_BANNER_TEXT.signedIn : EXTENSION_BANNER_TEXT.visitor;
  const storeUrl = platform.extension?.storeUrl || DEFAULT_EXTENSION_STORE_URL;

  const dismiss = () => {
    session?.setItem(STORAGE_KEYS.extensionBannerDismissed, userKey);
    setDismissedFor(userKey);
  };

  const connect = async () => {
    if (!platform.extension) return;
    setConnecting(true);
    try {
      const { code } = await api.call('extensionHandoff');
      await platform.extension.sendHandoffCode(code);
      toast.success(EXTENSION_HANDOFF_MESSAGES.connected);
    } catch (error) {
      // The extension's own refusal (not installed, expired code) is worded for the user already.
      const fallback = EXTENSION_HANDOFF_MESSAGES.failed;
      toast.error(
        error instanceof ApiError ? errorMessage(error, fallback) : error instanceof Error && error.message ? error.message : fallback,
      );
    } finally {
      setConnecting(false);
    }
  };

  return (
    <div className="rs-extension-banner" role="region" aria-label="Chrome extension">
      <div className="rs-extension-banner__text">
        <strong>{text.title}</strong> <span>{text.body}</span>
      </div>
      {signedIn && installed && platform.extension ? (
        <button
          type="button"
          className="rs-button rs-button--primary rs-extension-banner__action"
          disabled={connecting}
          onClick={() => void connect()}
        >
          {connecting ? EXTENSION_BANNER_TEXT.connecting : EXTENSION_BANNER_TEXT.connect}
        </button>
      ) : (
        <button
          type="button"
          className="rs-button rs-button--primary rs-extension-banner__action"
          onClick={() => platform.navigation.openTab(storeUrl)}
        >
          {EXTENSION_BANNER_TEXT.install}
        </button>
      )}
      <button
        type="button"
        className="rs-icon-button rs-extension-banner__close"
        aria-label={EXTENSION_BANNER_TEXT.close}
        onClick={dismiss}
      >
        <CloseIcon />
      </button>
    </div>
  );
}
