// The base theme first, so component stylesheets can refine it.
import '../styles/theme.css';
import { isActiveJobStatus } from '@reelsmith/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { GoogleButton, useGoogleIdentity } from '../login/use-google-identity.js';
import { useJobs, useJobsConnection, useJobService, useJobStore } from '../shared/jobs/jobs-context.js';
import { SignInForm } from '../login/sign-in-form.js';
import { usePlatform } from '../platform.js';
import { useAuth, useServices } from '../services.js';
import { LoadingSplash } from '../shell/loading-splash.js';
import { GenerateForm } from '../studio/generate-form.js';
import { RecentVideosPanel } from '../studio/recent-videos-panel.js';
import { useGenerationAccess } from '../shared/generation/use-generation-access.js';
import { embedBatchesFor } from './embed-batches.js';
import { startEmbedBridge } from './embed-bridge.js';
import '../styles/studio.css';
import './embed.css';

export interface EmbedStudioProps {
  mode: 'studio' | 'compact';
  /** The partner page's origin, already checked; null when the page is opened on its own. */
  parentOrigin: string | null;
  post(message: unknown, targetOrigin: string): void;
}

// The Batch view (the web studio's composer and progress list) is fetched when first opened.
const EmbedBatch = lazy(() => import('./embed-batch.js'));

/** Google sign-in, as on the web, when the server has a client id. */
function EmbedGoogleSignIn() {
  const gis = useGoogleIdentity({ oneTap: false });
  return gis ? <GoogleButton gis={gis} text="continue_with" /> : null;
}

function SignedInStudio({ mode }: { mode: EmbedStudioProps['mode'] }) {
  const platform = usePlatform();
  const { jobs } = useJobs();
  const connected = useJobStore((s) => s.connected);
  const access = useGenerationAccess();
  const active = jobs.filter((job) => isActiveJobStatus(job.status)).length;
  const user = useAuth((s) => s.user);
  const logout = useAuth((s) => s.logout);
  const [view, setView] = useState<'video' | 'batch'>('video');
  const [batchId, setBatchId] = useState<string | null>(null);
  return (
    <div className={`rs-embed rs-embed--${mode}`}>
      <header className="rs-embed__bar">
        <span className="rs-embed__brand">Reelsmith</span>
        <div className="rs-embed__views" role="group" aria-label="What to make">
          <button type="button" className="rs-embed__view" aria-pressed={view === 'video'} onClick={() => setView('video')}>
            One video
          </button>
          <button type="button" className="rs-embed__view" aria-pressed={view === 'batch'} onClick={() => setView('batch')}>
            Batch
          </button>
        </div>
        <span className="rs-embed__user">{user?.name}</span>
        <button type="button" className="rs-link-button" onClick={() => void logout()}>
          Sign out
        </button>
      </header>
      {view === 'batch' ? (
        <Suspense fallback={<LoadingSplash />}>
          <EmbedBatch batchId={batchId} onBatch={setBatchId} />
        </Suspense>
      ) : (
        <div className="rs-embed__columns">
          <GenerateForm signedIn access={access} activeJobs={active} openPricing={() => platform.navigation.openTab('/pricing')} />
          {/* An embed session may not read or change storyboards, so its videos offer no Edit. */}
          <RecentVideosPanel jobs={jobs} connected={connected} editable={false} />
        </div>
      )}
    </div>
  );
}

/**
 * The studio as a partner page embeds it (/embed): the generate form and the live job list, a
 * Batch view, or a sign-in form; no navigation, admin, pricing or settings. Reports to the partner
 * page through the embed bridge.
 */
export function EmbedStudio({ mode, parentOrigin, post }: EmbedStudioProps) {
  const services = useServices();
  const platform = usePlatform();
  const jobService = useJobService();
  const initialize = useAuth((s) => s.initialize);
  const isLoading = useAuth((s) => s.isLoading);
  const signedIn = useAuth((s) => s.isAuthenticated && s.user !== null);
  useJobsConnection();

  useEffect(() => {
    void initialize();
  }, [initialize]);

  useEffect(() => {
    if (!parentOrigin) return;
    return startEmbedBridge({
      parentOrigin,
      post,
      authStore: services.authStore,
      jobStore: jobService.store,
      batches: embedBatchesFor(services),
      absoluteUrl: (path) => new URL(path, platform.apiBaseUrl || document.baseURI).href,
    });
  }, [parentOrigin, post, services, jobService, platform]);

  if (isLoading) return <LoadingSplash />;
  if (signedIn) return <SignedInStudio mode={mode} />;
  return (
    <div className={`rs-embed rs-embed--${mode} rs-embed--signed-out`}>
      <SignInForm
        onSignedIn={() => undefined}
        header={<h1 className="rs-embed__title">Sign in to Reelsmith</h1>}
        footer={platform.googleSignIn ? <EmbedGoogleSignIn /> : null}
      />
    </div>
  );
}
