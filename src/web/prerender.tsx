// Build-time only (scripts/prerender-first-paint.mjs loads it for vite.web.config.ts and
// vite.config.ts): the markup the pages carry so their first paint is never blank. index.html gets
// the visitor's Video Studio and, for the boot script to pick instead, the loading splash; the
// extension's popup and side panel get the splash. Never part of a browser bundle.
import { LoadingSplash, MemoryStorage, StudioApp, type Platform } from '@reelsmith/studio';
import { WEB_SHELL } from '@reelsmith/contracts';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';

/** A visitor's browser as the page first sees it: nothing stored, no extension, no network. */
const visitorPlatform: Platform = {
  kind: 'web',
  storage: new MemoryStorage(),
  sessionStorage: new MemoryStorage(),
  navigation: { openTab: () => undefined, reload: () => undefined },
  // The extension banner needs a check that only the browser can make; the app adds it when it runs.
  browser: { isDesktopChrome: () => false },
  apiBaseUrl: '',
  googleSignIn: false,
};

/** The loading splash as the app renders it. */
export function renderSplash(): string {
  return renderToString(<LoadingSplash />);
}

/** The #root content of the built index.html. */
export function renderFirstPaint(): string {
  const studio = renderToString(
    <MemoryRouter initialEntries={['/']}>
      <StudioApp platform={visitorPlatform} />
    </MemoryRouter>,
  );
  const splash = renderSplash();
  // inert: the prerendered form shows at once but takes no input until the app replaces it, so
  // nothing typed before then is lost.
  return `<div class="${WEB_SHELL.prerenderClass}" inert>${studio}</div><div class="${WEB_SHELL.splashWrapperClass}">${splash}</div>`;
}
