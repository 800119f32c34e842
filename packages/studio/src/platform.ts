import { DESKTOP_CHROME, type ArticleSource, type FormRequest } from '@reelsmith/contracts';
import { createContext, createElement, useContext, type ReactNode } from 'react';

/**
 * What the studio needs from its host (web page, extension popup or side panel). The studio never
 * touches chrome.* or window.location itself, so the same components run in every host.
 */

/** Synchronous key-value storage with the localStorage shape (zustand's persist reads it directly). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Navigation {
  /** Opens an absolute or API-relative URL in a new browser tab. */
  openTab(url: string): void;
  /** Reloads the whole app (the web page, or the extension view). */
  reload(): void;
  /**
   * Makes the browser ask before the page is closed or reloaded, until the returned function is
   * called (unsaved work). Hosts without a page to leave omit it.
   */
  guardUnload?(): () => void;
}

export interface BrowserInfo {
  /** Desktop Chrome only: not mobile, not Opera, not Edge (where the extension banner shows). */
  isDesktopChrome(): boolean;
}

/** The web app's line to the Reelsmith Chrome extension (the web entry implements it with chrome.runtime). */
export interface ExtensionBridge {
  /** The browser store listing (VITE_EXTENSION_STORE_URL). */
  storeUrl: string;
  /** Whether the extension answers in this browser. */
  isInstalled(): Promise<boolean>;
  /** Hands the extension a one-time sign-in code; resolves once it has signed in, rejects with its reason. */
  sendHandoffCode(code: string): Promise<void>;
}

/**
 * What the host asks the studio form to start from: a topic (the extension's "Create a video about
 * this", the embed's set-topic), a script or a page's article (the extension's context menu).
 */
export interface FormRequests {
  /** Calls `listener` with a waiting request now and with each later one; returns the unsubscribe. */
  subscribe(listener: (request: FormRequest) => void): () => void;
}

/** Reads the article of the page the user is looking at (the extension reads it inside the page). */
export interface PageArticleReader {
  /** The page's main text with its title and address; rejects with a message the user can act on. */
  read(): Promise<ArticleSource>;
}

export interface Platform {
  storage: KeyValueStorage;
  /** Set by hosts that can prefill the studio form; the generate form subscribes. */
  formRequests?: FormRequests;
  /** Set by hosts that can read the page beside them: the form then offers "Make a video of this page". */
  pageArticle?: PageArticleReader;
  /** Per-tab storage (sessionStorage on the web): the extension banner's dismissal lives here. */
  sessionStorage?: KeyValueStorage;
  /** Present where the web app can talk to the extension (desktop Chrome). */
  extension?: ExtensionBridge;
  navigation: Navigation;
  browser: BrowserInfo;
  /** Origin of the Reelsmith API without a trailing slash; '' means same origin as the page. */
  apiBaseUrl: string;
  /**
   * Whether Google Identity Services can run here. Extension pages may not load remote scripts
   * (Manifest V3 CSP), so the extension hosts turn Google sign-in off.
   */
  googleSignIn: boolean;
  /** The bypass-authentication build flag (for demos): shows the studio alone. */
  bypassAuth?: boolean;
  /** 'web' renders the full shell; 'popup' is the compact extension popup. */
  kind: 'web' | 'extension';
}

/** Resolves a path like /output/x.mp4 against the API host. */
export function apiUrl(platform: Pick<Platform, 'apiBaseUrl'>, path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  return `${platform.apiBaseUrl}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Desktop Chrome detection from a user-agent string (Chromium forks and mobile excluded). */
export function isDesktopChromeUserAgent(userAgent: string): boolean {
  return DESKTOP_CHROME.userAgent.test(userAgent) && !DESKTOP_CHROME.otherUserAgents.test(userAgent);
}

/** The part of `navigator` browser detection reads (userAgentData is Chromium-only). */
export interface NavigatorInfo {
  userAgent: string;
  userAgentData?: { brands?: ReadonlyArray<{ brand: string }>; mobile?: boolean } | null;
}

/** Desktop Chrome (where the extension banner shows); the patterns are shared with index.html's boot script. */
export function isDesktopChromeBrowser(nav: NavigatorInfo): boolean {
  const data = nav.userAgentData;
  if (data?.brands && data.brands.length > 0) {
    if (data.mobile) return false;
    const brands = data.brands.map((b) => b.brand);
    if (brands.some((brand) => DESKTOP_CHROME.otherBrands.test(brand))) return false;
    if (brands.some((brand) => (DESKTOP_CHROME.chromeBrands as readonly string[]).includes(brand)))
      return isDesktopChromeUserAgent(nav.userAgent);
    return false;
  }
  return isDesktopChromeUserAgent(nav.userAgent);
}

/** An in-memory storage, for tests and for hosts that hydrate from an async store first. */
export class MemoryStorage implements KeyValueStorage {
  readonly entries: Map<string, string>;
  constructor(initial?: Iterable<[string, string]>) {
    this.entries = new Map(initial);
  }
  getItem(key: string): string | null {
    return this.entries.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.entries.set(key, value);
  }
  removeItem(key: string): void {
    this.entries.delete(key);
  }
}

const PlatformContext = createContext<Platform | null>(null);

export function PlatformProvider({ platform, children }: { platform: Platform; children?: ReactNode }) {
  return createElement(PlatformContext.Provider, { value: platform }, children);
}

export function usePlatform(): Platform {
  const platform = useContext(PlatformContext);
  if (!platform) throw new Error('usePlatform must be used inside <PlatformProvider>');
  return platform;
}
