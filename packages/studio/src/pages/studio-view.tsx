import { isActiveJobStatus } from '@reelsmith/contracts';
import { Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { useIsDesktop } from '../shared/billing/billing-hooks.js';
import { PricingDialog } from '../billing/pricing-dialog-lazy.js';
import { useJobs, useJobsConnection, useJobStore } from '../shared/jobs/jobs-context.js';
import type { TrackedJob } from '../shared/jobs/tracked-jobs-store.js';
import { PageHeader } from '../ui/page-header.js';
import { preloadable } from '../ui/preloadable.js';
import { useAuth } from '../services.js';
import { QuotaStatusWidget } from '../shared/voices/index.js';
import { ExampleGallery } from '../studio/example-gallery.js';
import { GenerateForm } from '../studio/generate-form.js';
import { preloadRecentVideoRows, RecentVideosPanel } from '../studio/recent-videos-panel.js';
import { VisitorVideosCard } from '../studio/visitor-videos-card.js';
import { useGenerationAccess } from '../shared/generation/use-generation-access.js';
import '../styles/studio.css';

// The plan area (subscription, usage, storage line) is for creators only, so visitors never fetch it.
const planArea = preloadable(() => import('../billing/plan-area.js').then((m) => m.PlanArea));
const PlanArea = planArea.Component;
/**
 * The signed-in studio's own code, with the recent videos' rows once `jobs` (the video list) has one
 * to show: the app fetches them while a stored session is checked, so nothing pops in when the studio shows.
 */
export const preloadSignedInStudio = (jobs: Promise<readonly Pick<TrackedJob, 'status'>[]>): Promise<unknown> =>
  Promise.all([planArea.preload(), jobs.then(preloadRecentVideoRows)]);

function Counter({ label, value, tone }: { label: string; value: number; tone: string }) {
  return (
    <div className={`rs-card rs-counter rs-counter--${tone}`}>
      <span className="rs-counter__value">{value}</span>
      <span className="rs-counter__label">{label}</span>
    </div>
  );
}

/** What a visitor gets, where a creator sees their counters (a visitor has no videos to count). */
export const WHAT_IT_MAKES = [
  { title: '30, 60 or 90 seconds', body: 'A narrated short video with a picture for every scene' },
  { title: '9:16, 16:9 or 1:1', body: 'Vertical for Reels and Shorts, wide for YouTube, square for feeds' },
  { title: 'Captions and music', body: 'Word-timed captions in 13 styles, a music bed and Ken Burns motion' },
] as const;

function WhatItMakes() {
  return (
    <ul className="rs-counters rs-makes" aria-label="What Reelsmith makes">
      {WHAT_IT_MAKES.map((item, index) => (
        <li key={item.title} className={`rs-card rs-counter rs-makes__item rs-counter--${(['total', 'active', 'done'] as const)[index]}`}>
          <span className="rs-makes__title">{item.title}</span>
          <span className="rs-counter__label">{item.body}</span>
        </li>
      ))}
    </ul>
  );
}

/** The Video Studio: greeting, plan area, counters (signed in) or what it makes (visitors), the generate form and recent videos. */
export function StudioView() {
  const user = useAuth((s) => (s.isAuthenticated ? s.user : null));
  const signedIn = user !== null;
  useJobsConnection();
  const { jobs } = useJobs();
  const connected = useJobStore((s) => s.connected);
  const access = useGenerationAccess();
  const navigate = useNavigate();

  const active = jobs.filter((job) => isActiveJobStatus(job.status)).length;
  const completed = jobs.filter((job) => job.status === 'completed').length;
  const isDesktop = useIsDesktop();
  const [pricingOpen, setPricingOpen] = useState(false);
  // The pricing dialog on desktop, the pricing page on small screens.
  const openPricing = () => (isDesktop ? setPricingOpen(true) : navigate('/pricing'));

  return (
    <div className="rs-page rs-page--studio">
      {user ? (
        <PageHeader
          title={`Welcome back, ${user.name}!`}
          subtitle="Turn a topic, your own script or an article into a narrated short video."
        />
      ) : (
        <PageHeader
          title="Create AI videos for social media"
          subtitle="Try a free demo: your first video is free when you sign up. No credit card required."
        />
      )}
      {signedIn ? (
        <Suspense fallback={null}>
          <PlanArea />
        </Suspense>
      ) : null}
      {signedIn ? (
        <div className="rs-counters" role="group" aria-label="Your videos">
          <Counter label="Total Videos" value={jobs.length} tone="total" />
          <Counter label="In Progress" value={active} tone="active" />
          <Counter label="Completed" value={completed} tone="done" />
        </div>
      ) : (
        <WhatItMakes />
      )}
      {/* Visitors see the examples first, across the page: what it makes, before what to fill in. */}
      {signedIn ? null : <ExampleGallery />}
      <div className="rs-studio__columns">
        <GenerateForm signedIn={signedIn} access={access} activeJobs={active} openPricing={openPricing} />
        {pricingOpen ? <PricingDialog open onOpenChange={setPricingOpen} /> : null}
        <div className="rs-studio__side">{signedIn ? <RecentVideosPanel jobs={jobs} connected={connected} /> : <VisitorVideosCard />}</div>
      </div>
      {/* Last on the page: it appears once the sample count arrives, and nothing below it can move. */}
      <QuotaStatusWidget />
    </div>
  );
}
