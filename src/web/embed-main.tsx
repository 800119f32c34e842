import { EMBED_MESSAGE_SOURCE, STORAGE_KEYS, embedPageQuerySchema } from '@reelsmith/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import {
  createStudioServices,
  EmbedStudio,
  isDesktopChromeBrowser,
  MemoryStorage,
  parseEmbedCommand,
  PlatformProvider,
  ServicesProvider,
  StudioToaster,
  type Platform,
  type FormRequests,
} from '@reelsmith/studio/embed';

/**
 * The studio inside a partner page's iframe (/embed). Its own entry: no admin, pricing or settings
 * code. The server only serves it to the origins in EMBED_ALLOWED_ORIGINS (CSP frame-ancestors).
 */
const query = embedPageQuerySchema.safeParse(Object.fromEntries(new URLSearchParams(window.location.search)));
const options = query.success ? query.data : embedPageQuerySchema.parse({});
// The session token travels in the fragment, which is never sent to any server or written to logs.
const sessionToken = new URLSearchParams(window.location.hash.slice(1)).get('session');
if (sessionToken) history.replaceState(null, '', window.location.pathname + window.location.search);

/** The parent we talk to: the origin the loader named, when it really is our direct ancestor. */
function checkedParentOrigin(): string | null {
  if (window.parent === window || !options.parentOrigin) return null;
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0 && ancestors[0] !== options.parentOrigin) return null;
  return options.parentOrigin;
}
const parentOrigin = checkedParentOrigin();

document.documentElement.dataset.theme = options.theme;

/** A minted session lives for this page only; a creator's own sign-in is kept like on the web. */
function storageFor(token: string | null) {
  if (!token) return window.localStorage;
  return new MemoryStorage([
    [STORAGE_KEYS.token, token],
    [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: null, token, apiKey: null, isAuthenticated: true }, version: 0 })],
  ]);
}

const topicListeners = new Set<Parameters<FormRequests['subscribe']>[0]>();
let waitingTopic = options.topic ?? null;
const formRequests: FormRequests = {
  subscribe(listener) {
    topicListeners.add(listener);
    if (waitingTopic !== null) listener({ kind: 'topic', topic: waitingTopic });
    return () => topicListeners.delete(listener);
  },
};
window.addEventListener('message', (event) => {
  const command = parentOrigin ? parseEmbedCommand(event, parentOrigin, window.parent) : null;
  if (command?.type === 'set-topic') {
    waitingTopic = command.topic;
    for (const listener of topicListeners) listener({ kind: 'topic', topic: command.topic });
  }
});

const platform: Platform = {
  kind: 'web',
  storage: storageFor(sessionToken),
  formRequests,
  navigation: {
    openTab: (url) => void window.open(new URL(url, window.location.origin).href, '_blank', 'noopener,noreferrer'),
    reload: () => window.location.reload(),
  },
  browser: { isDesktopChrome: () => isDesktopChromeBrowser(navigator as Navigator & Parameters<typeof isDesktopChromeBrowser>[0]) },
  // The embed page is served by the API itself; an absolute base lets the studio hand the partner page full links.
  apiBaseUrl: window.location.origin,
  googleSignIn: true,
};
// A minted embed session may not read API keys nor the subscription (the server answers 403); a
// creator's own sign-in may.
const services = createStudioServices(platform, { readsApiKey: !sessionToken, readsSubscription: !sessionToken });

const post = (message: unknown, targetOrigin: string) => window.parent.postMessage(message, targetOrigin);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from embed.html');

// The loader sizes the iframe to the content, so the partner page shows one scroll bar only.
if (parentOrigin) {
  let lastHeight = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(container?.getBoundingClientRect().height ?? document.body.scrollHeight);
    if (height === lastHeight) return;
    lastHeight = height;
    post({ source: EMBED_MESSAGE_SOURCE, event: { type: 'resize', height } }, parentOrigin);
  }).observe(container ?? document.body);
}

createRoot(container).render(
  <StrictMode>
    <MemoryRouter>
      <PlatformProvider platform={platform}>
        <ServicesProvider services={services}>
          <QueryClientProvider client={services.queryClient}>
            <EmbedStudio mode={options.mode} parentOrigin={parentOrigin} post={post} />
            <StudioToaster position="top-center" />
          </QueryClientProvider>
        </ServicesProvider>
      </PlatformProvider>
    </MemoryRouter>
  </StrictMode>,
);
