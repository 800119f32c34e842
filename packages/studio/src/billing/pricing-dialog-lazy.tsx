import { lazy, Suspense, useState, type ComponentProps } from 'react';

type PricingDialogProps = ComponentProps<typeof import('./pricing-dialog.js').PricingDialog>;

// The plan grid, checkout dialogs and Razorpay loader stay out of the first load, which stays small.
const loadPricingDialog = () => import('./pricing-dialog.js').then((m) => ({ default: m.PricingDialog }));
const LoadedPricingDialog = lazy(loadPricingDialog);

/** Fetches the pricing dialog's code ahead of a click (an upgrade button's hover or focus). */
export function preloadPricingDialog(): void {
  loadPricingDialog().catch(() => undefined);
}

/**
 * The 'Choose Your Plan' dialog, loaded on first open. A closed dialog renders nothing either way,
 * so until then nothing is mounted. Its code is fetched when the pointer or focus reaches a button
 * that opens it (preloadPricingDialog), not while the page loads: an idle-time fetch landed inside
 * the first load on a phone and counted against its JavaScript budget.
 */
export function PricingDialog(props: PricingDialogProps) {
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LoadedPricingDialog {...props} />
    </Suspense>
  );
}
