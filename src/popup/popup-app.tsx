import { apiUrl, LoadingSplash, useAuth, usePlatform } from '@reelsmith/studio/popup';
import { isActiveJobStatus } from '@reelsmith/contracts';
import { lazy, Suspense, useEffect } from 'react';
import { useExtensionJobState, type ExtensionJobSource } from '../extension-host/extension-job-source.js';
import { ActiveJobs } from './active-jobs.js';
import { CompactStudioForm } from './compact-studio-form.js';
import { useJobOutcomeToasts } from './use-job-outcome-toasts.js';
import './popup.css';

// Only a signed-out popup shows the sign-in form: it loads then, outside the popup's first load.
const SignInForm = lazy(() => import('@reelsmith/studio/sign-in').then((module) => ({ default: module.SignInForm })));

async function openSidePanel(): Promise<void> {
  const window = await chrome.windows.getCurrent();
  if (window.id !== undefined) await chrome.sidePanel.open({ windowId: window.id });
}

/** The toolbar popup: a compact studio and the running jobs, or a compact e-mail sign-in. */
export function PopupApp({ jobs }: { jobs: ExtensionJobSource }) {
  const platform = usePlatform();
  const initialize = useAuth((s) => s.initialize);
  const isLoading = useAuth((s) => s.isLoading);
  const user = useAuth((s) => (s.isAuthenticated ? s.user : null));
  const logout = useAuth((s) => s.logout);
  const state = useExtensionJobState(jobs);
  const activeCount = state.jobs.filter((job) => isActiveJobStatus(job.status)).length;
  useJobOutcomeToasts(state.jobs);

  useEffect(() => {
    void initialize();
  }, [initialize]);
  // Opening the popup wakes the worker, which reconnects and catches up.
  useEffect(() => {
    if (user) jobs.refresh().catch(() => undefined);
  }, [jobs, user]);

  if (isLoading) return <LoadingSplash />;

  return (
    <main className="rs-popup__body">
      <header className="rs-popup__brand">
        <img src="/store-assets/icons/icon-48.png" width={32} height={32} alt="" />
        <div className="rs-popup__brand-text">
          <p className="rs-popup__name">Reelsmith</p>
          <p className="rs-popup__tagline">{user ? `Signed in as ${user.name}` : 'AI Video Platform'}</p>
        </div>
        {user ? (
          <div className="rs-popup__header-actions">
            <button type="button" className="rs-link-button" onClick={() => void openSidePanel().then(() => window.close())}>
              Open Studio
            </button>
            <button type="button" className="rs-link-button" onClick={() => void logout()}>
              Logout
            </button>
          </div>
        ) : null}
      </header>
      {user ? (
        <>
          <ActiveJobs jobs={jobs} list={state.jobs} />
          <CompactStudioForm jobs={jobs} activeJobs={activeCount} />
          {/* A batch needs room (a list, its check, a progress list): it opens in the web studio. */}
          <p className="rs-popup__signup">
            Many videos at once?{' '}
            <button type="button" className="rs-link-button" onClick={() => platform.navigation.openTab(apiUrl(platform, '/batch'))}>
              Open Batch in the web studio
            </button>
          </p>
        </>
      ) : (
        <section>
          <Suspense fallback={null}>
            <SignInForm onSignedIn={() => undefined} />
          </Suspense>
          <p className="rs-popup__signup">
            New here?{' '}
            <button type="button" className="rs-link-button" onClick={() => platform.navigation.openTab('/login?tab=signup')}>
              Sign up free
            </button>
          </p>
        </section>
      )}
    </main>
  );
}
