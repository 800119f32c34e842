import { TOAST_DURATIONS_MS } from '@reelsmith/contracts';
import { Toaster, type DefaultToastOptions, type ToastPosition } from 'react-hot-toast';

export type { ToastPosition };

/**
 * Spec section 9: 4000 ms for blank and error, 2000 ms for success, unlimited for loading, and a
 * general duration of 3 s for everything else. react-hot-toast keeps at most 20 toasts
 * (its TOAST_LIMIT), which is the spec's limit, so no setting is needed for it.
 */
export const TOAST_OPTIONS: DefaultToastOptions = {
  duration: TOAST_DURATIONS_MS.general,
  blank: { duration: TOAST_DURATIONS_MS.blank },
  error: { duration: TOAST_DURATIONS_MS.error },
  success: { duration: TOAST_DURATIONS_MS.success },
  loading: { duration: Number.POSITIVE_INFINITY },
  className: 'rs-toast',
  style: {
    background: '#1d1b2e',
    color: '#f3f1ff',
    border: '1px solid rgba(255,255,255,0.08)',
    borderRadius: '12px',
    fontSize: '14px',
    boxShadow: '0 12px 32px rgba(0,0,0,0.35)',
  },
};

/**
 * Bottom right by default: at the top a toast covered the extension banner's Install Now, the avatar
 * menu, a dialog's close button and the Recent Videos card the progress toasts point to. Small hosts
 * (the extension popup, whose Generate bar is at the bottom) choose another place.
 */
export function StudioToaster({ position = 'bottom-right' }: { position?: ToastPosition | undefined }) {
  return <Toaster position={position} toastOptions={TOAST_OPTIONS} />;
}
