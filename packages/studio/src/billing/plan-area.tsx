import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isActiveJobStatus } from '@reelsmith/contracts';
import { useJobStore } from '../shared/jobs/jobs-context.js';
import { useAuth } from '../services.js';
import { formatPlanDate } from '../shared/billing/billing-format.js';
import { useCanGenerate, useIsDesktop, useStorageStats, useSubscription } from '../shared/billing/billing-hooks.js';
import { preloadPricingDialog, PricingDialog } from './pricing-dialog-lazy.js';
import './billing.css';

export const STORAGE_CHECKING_TEXT = 'Counting stored videos…';
export const STORAGE_UNKNOWN_TEXT = 'Stored videos: count unavailable';

/**
 * The studio's plan area: the plan chip and this month's usage, or the cancelled,
 * expired or no-plan line, each with its action; plus stored videos and the tier line. Signed-in only.
 */
export function PlanArea() {
  const signedIn = useAuth((s) => s.isAuthenticated);
  const { data } = useSubscription();
  // The generate form's own can-generate query (same key): no second request, no polling.
  const canGenerate = useCanGenerate();
  const storage = useStorageStats();
  // Stored counts finished videos only; one being made is said too, not hidden behind "0 stored".
  const inProgress = useJobStore((state) => Object.values(state.jobs).filter((job) => isActiveJobStatus(job.status)).length);
  const isDesktop = useIsDesktop();
  const navigate = useNavigate();
  const [dialogOpen, setDialogOpen] = useState(false);
  if (!signedIn) return null;

  const openPricing = () => (isDesktop ? setDialogOpen(true) : navigate('/pricing'));
  const subscription = data?.subscription ?? null;
  const used = data?.usage.videosThisMonth ?? 0;

  let summary;
  let action: string;
  if (subscription?.status === 'active') {
    summary = (
      <>
        <span className="rs-chip rs-chip--active">{subscription.planName}</span>
        <span className="rs-plan-area__usage" aria-label="Videos used this month">
          {used} / {subscription.videoLimit === -1 ? '∞' : subscription.videoLimit}
          <span className="rs-plan-area__usage-label"> videos this month</span>
        </span>
      </>
    );
    action = 'Manage Plan';
  } else if (subscription?.status === 'cancelled') {
    summary = <span className="rs-chip rs-chip--cancelled">Cancelled - Access until {formatPlanDate(subscription.endDate)}</span>;
    action = 'Reactivate Plan';
  } else if (subscription?.status === 'expired') {
    summary = <span className="rs-chip rs-chip--expired">Expired on {formatPlanDate(subscription.endDate)}</span>;
    action = 'Renew Plan';
  } else {
    // Without a plan, can-generate refuses with isFreeVideo false only once the free video is spent.
    const freeVideoUsed = canGenerate.data !== null && !canGenerate.data.canGenerate && !canGenerate.data.isFreeVideo;
    summary = (
      <span className="rs-plan-area__free">
        {freeVideoUsed ? 'Free video used · choose a plan to make more' : 'Free plan: one free 30-second video'}
      </span>
    );
    action = 'Upgrade Plan';
  }

  return (
    <section className="rs-card rs-plan-area" aria-label="Your plan">
      <div className="rs-plan-area__row">
        <div className="rs-plan-area__summary">{summary}</div>
        <button
          type="button"
          className="rs-button rs-button--primary"
          onClick={openPricing}
          // The dialog's code is fetched on the way to a click (desktop only: phones open the pricing page).
          onPointerEnter={isDesktop ? preloadPricingDialog : undefined}
          onFocus={isDesktop ? preloadPricingDialog : undefined}
        >
          {action}
        </button>
      </div>
      {/* The line keeps its place while the count loads, so the studio below it does not move. */}
      {storage.data ? (
        <p className="rs-plan-area__storage">
          {storage.data.totalVideos} {storage.data.totalVideos === 1 ? 'video' : 'videos'} stored
          {inProgress > 0 ? ` · ${inProgress} being made` : ''} · {storage.data.tierConfig.description}
        </p>
      ) : (
        <p className="rs-plan-area__storage rs-plan-area__storage--pending" aria-busy={!storage.isError}>
          {storage.isError ? STORAGE_UNKNOWN_TEXT : STORAGE_CHECKING_TEXT}
        </p>
      )}
      <PricingDialog open={dialogOpen} onOpenChange={setDialogOpen} />
    </section>
  );
}
