// The base theme first, so component stylesheets can refine it.
import '../styles/theme.css';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { lazy, startTransition, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useGoogleClientId } from '../login/google-client-id.js';
import { preloadable } from '../ui/preloadable.js';
import { PlatformProvider } from '../platform.js';
import { ServicesProvider, useAnalytics, useAuth, useServices } from '../services.js';
import { createStudioServices } from '../studio-services.js';
import { LoadingSplash } from '../shell/loading-splash.js';
import { StudioPage } from '../pages/studio-page.js';
import { preloadSignedInStudio } from '../pages/studio-view.js';
import { storageStatsQuery } from '../shared/billing/billing-hooks.js';
import { videoListQuery } from '../shared/jobs/video-queries.js';
import { StudioToaster } from '../toaster.js';
import { useJobsConnection } from '../shared/jobs/jobs-context.js';
import { AppRoutes } from './app-routes.js';
export { StudioProviders } from './studio-providers.js';
import type { StudioHostProps } from './studio-providers.js';
import { preloadRoute } from './lazy-routes.js';
import { titleForPath, type Viewer } from '../routes/route-table.js';

// Loaded only when a session was ended by a suspension: its dialog code stays out of the first load.
const SuspendedNotice = lazy(() => import('../shell/suspended-notice.js').then((m) => ({ default: m.SuspendedNotice })));

function useViewer(): Viewer {
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const role = useAuth((s) => s.user?.role ?? null);
  return useMemo(() => (isAuthenticated && role ? { signedIn: true, role } : { signedIn: false }), [isAuthenticated, role]);
}

/** Sets the document title and records a page view on every path change. */
function PageTracker({ viewer }: { viewer: Viewer }) {
  const { pathname } = useLocation();
  const analytics = useAnalytics();
  const title = titleForPath(pathname, viewer);
  useEffect(() => {
    document.title = `${title} · Reelsmith`;
  }, [title]);
  useEffect(() => {
    analytics.pageView(pathname, titleForPath(pathname, viewer));
    // A page view per path, not per sign-in state change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname, analytics]);
  return null;
}

// Google's sign-in code loads only where Google sign-in is configured (GET /auth/config names a client).
const visitorOneTap = preloadable(() => import('./visitor-one-tap.js').then((m) => m.VisitorOneTap));
const VisitorOneTapCode = visitorOneTap.Component;

/** One Tap for visitors, once the server says Google sign-in is configured. */
function VisitorOneTap() {
  const clientId = useGoogleClientId();
  if (!clientId) return null;
  return (
    <Suspense fallback={null}>
      <VisitorOneTapCode />
    </Suspense>
  );
}

/**
 * While a stored session is checked (the splash), start what the signed-in studio shows first: its
 * plan area's code, the video list (and the recent videos' rows' code once it has a video) and the storage line. They go out with the stored token beside
 * the profile check instead of after it; a stale token fails them and signs out as before.
 */
function useSignedInPrefetch(): () => Promise<unknown> | null {
  const { api, authStore } = useServices();
  const queryClient = useQueryClient();
  return () => {
    const { isLoading, user } = authStore.getState();
    if (!isLoading || !user) return null;
    // Tried once here (the page's own query retries): a failed list reads as no videos, and the splash does not wait on retries.
    const jobs = queryClient.fetchQuery({ ...videoListQuery(api, user.id), retry: false }).catch(() => []);
    void queryClient.prefetchQuery(storageStatsQuery(api, user.id));
    return preloadSignedInStudio(jobs);
  };
}

function StudioRoot() {
  const initialize = useAuth((s) => s.initialize);
  const prefetchSignedIn = useSignedInPrefetch();
  const signedInCode = useRef<Promise<unknown> | null>(null);
  const isLoading = useAuth((s) => s.isLoading);
  const viewer = useViewer();
  const suspended = useAuth((s) => s.signedOutReason === 'suspended');
  const { pathname } = useLocation();
  // One live job connection for the whole signed-in app, so job toasts reach every page.
  useJobsConnection();

  useEffect(() => {
    void initialize();
    // A direct visit to a page that loads on demand fetches it while the splash is up, and so do the
    // studio's signed-in parts while a stored session is checked.
    preloadRoute(pathname);
    signedInCode.current = prefetchSignedIn();
    // Once, for the path the visit started on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialize]);

  // The first screen after the splash is rendered as a transition: React renders it in slices and
  // the splash stays up (and the page responsive) until it is ready. The auth store is an external
  // store, whose own updates React always renders in one blocking pass. The splash also waits for
  // the signed-in studio's code fetched beside the profile check, so no part of the page pops in
  // (and pushes the rest down) after it shows.
  const [splashDone, setSplashDone] = useState(!isLoading);
  useEffect(() => {
    if (isLoading) return;
    let current = true;
    void Promise.resolve(signedInCode.current)
      .catch(() => undefined)
      .then(() => {
        if (current) startTransition(() => setSplashDone(true));
      });
    return () => {
      current = false;
    };
  }, [isLoading]);

  if (isLoading || !splashDone) return <LoadingSplash />;
  return (
    <>
      <PageTracker viewer={viewer} />
      {!viewer.signedIn && pathname !== '/login' ? <VisitorOneTap /> : null}
      <AppRoutes viewer={viewer} />
      {suspended ? (
        <Suspense fallback={null}>
          <SuspendedNotice />
        </Suspense>
      ) : null}
    </>
  );
}

export type StudioAppProps = StudioHostProps;

/**
 * The whole studio below a host-supplied router (BrowserRouter on the web, MemoryRouter in the
 * extension side panel).
 */
export function StudioApp({ platform, services: injected }: StudioAppProps) {
  const services = useMemo(() => injected ?? createStudioServices(platform), [injected, platform]);
  return (
    <PlatformProvider platform={platform}>
      <ServicesProvider services={services}>
        <QueryClientProvider client={services.queryClient}>
          {platform.bypassAuth ? <StudioPage /> : <StudioRoot />}
          <StudioToaster />
        </QueryClientProvider>
      </ServicesProvider>
    </PlatformProvider>
  );
}
