import { lazy, Suspense, useEffect, useState, type ComponentProps } from 'react';

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
 * so until then nothing is mounted; the code is fetched when the browser is idle after the page
 * has loaded, so the first open does not wait for the network.
 */
export function PricingDialog(props: PricingDialogProps) {
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  useEffect(() => {
    const idle = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 2000));
    const cancel = globalThis.cancelIdleCallback ?? clearTimeout;
    const handle = idle(() => preloadPricingDialog());
    return () => cancel(handle as number);
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LoadedPricingDialog {...props} />
    </Suspense>
  );
}
