import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SideNav } from './side-nav.js';
import { TopBar } from './top-bar.js';
import { usePlatform } from '../platform.js';
import { preloadable } from '../ui/preloadable.js';
import './shell.css';
// The banner's styles stay in the first load: they hold the bar's place in the first paint (see the file).
import './extension-banner.css';

// The extension banner shows on desktop Chrome only: a phone's first load does without its code.
const extensionBanner = preloadable(() => import('./extension-banner.js').then((m) => m.ExtensionBanner));
const ExtensionBanner = extensionBanner.Component;

const navigationDrawer = preloadable(() => import('./navigation-drawer.js').then((m) => m.NavigationDrawer));
const NavigationDrawer = navigationDrawer.Component;

/**
 * The application shell: a 280 px side navigation that is permanent on wide screens
 * (CSS, ≥ 900 px) and a slide-out drawer opened from the top bar's menu button on narrow ones.
 */
export function AppShell({ title }: { title: string }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Mounted from the first open on, so it can animate closed and open again without a reload.
  const [drawerWanted, setDrawerWanted] = useState(false);
  const { pathname } = useLocation();
  const platform = usePlatform();
  const bannerEligible = platform.kind === 'web' && platform.browser.isDesktopChrome();

  const mainRef = useRef<HTMLElement>(null);

  // Following a link inside the drawer closes it.
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <div className="rs-shell">
      {/* The first Tab stop: past the banner, the navigation and the top bar to the page itself. */}
      <a
        href="#main-content"
        className="rs-skip-link"
        onClick={(event) => {
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Skip to main content
      </a>
      {bannerEligible ? (
        <Suspense fallback={null}>
          <ExtensionBanner />
        </Suspense>
      ) : null}
      <aside className="rs-shell__sidebar">
        <SideNav />
      </aside>
      {/* The drawer's dialog code (Radix, focus trap, scroll lock) loads on the first intent to open it. */}
      {drawerWanted ? (
        <Suspense fallback={null}>
          <NavigationDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
        </Suspense>
      ) : null}
      <div className="rs-shell__main">
        <TopBar
          title={title}
          onNavigationIntent={() => void navigationDrawer.preload().catch(() => undefined)}
          onOpenNavigation={() => {
            setDrawerWanted(true);
            setDrawerOpen(true);
          }}
        />
        <main id="main-content" ref={mainRef} tabIndex={-1} className="rs-shell__content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
