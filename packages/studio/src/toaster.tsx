import { TOAST_DURATIONS_MS } from '@reelsmith/contracts';
import { useSyncExternalStore } from 'react';
import type { DefaultToastOptions, Renderable, Toast, ToastOptions, ToastPosition, ValueFunction } from 'react-hot-toast';

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

/*
 * react-hot-toast (with its CSS-in-JS engine, about 4 KB on the wire) is fetched on the first toast
 * rather than in the first load (issue 17): a visitor who never triggers one never downloads it.
 * `toast` keeps the library's API. It returns ids at once (its own when the caller gave none), so a
 * call made while the library loads is shown, updated, dismissed or removed in order once it is in.
 */
type Library = typeof import('react-hot-toast');
type Message = ValueFunction<Renderable, Toast> | Renderable;

let library: Library | null = null;
let loading: Promise<Library> | null = null;
const subscribers = new Set<() => void>();
let lastId = 0;

function loadLibrary(): Promise<Library> {
  loading ??= import('react-hot-toast').then((module) => {
    library = module;
    for (const notify of subscribers) notify();
    return module;
  });
  return loading;
}

function withLibrary(action: (module: Library) => void): void {
  if (library) action(library);
  else
    loadLibrary().then(action, (error: unknown) => {
      // Without the library there is nowhere to show a toast; the page itself keeps working.
      console.warn('Loading the notifications failed', error);
    });
}

type Kind = 'blank' | 'success' | 'error' | 'loading' | 'custom';

function show(kind: Kind, message: Message, options?: ToastOptions): string {
  const id = options?.id ?? `rs-toast-${(lastId += 1)}`;
  withLibrary(({ default: hot }) => {
    const withId = { ...options, id };
    if (kind === 'blank') hot(message, withId);
    else if (kind === 'custom') hot.custom(message, withId);
    else hot[kind](message, withId);
  });
  return id;
}

/** Before the library is in, nothing is shown, so a dismiss or remove only has to wait if it is loading. */
function whenShown(action: (module: Library) => void): void {
  if (library) action(library);
  else if (loading) void loading.then(action, () => undefined);
}

export const toast = Object.assign((message: Message, options?: ToastOptions) => show('blank', message, options), {
  success: (message: Message, options?: ToastOptions) => show('success', message, options),
  error: (message: Message, options?: ToastOptions) => show('error', message, options),
  loading: (message: Message, options?: ToastOptions) => show('loading', message, options),
  custom: (message: Message, options?: ToastOptions) => show('custom', message, options),
  dismiss: (id?: string) => whenShown(({ default: hot }) => hot.dismiss(id)),
  remove: (id?: string) => whenShown(({ default: hot }) => hot.remove(id)),
});

const subscribe = (notify: () => void) => {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
};
const currentLibrary = () => library;

/**
 * Bottom right by default: at the top a toast covered the extension banner's Install Now, the avatar
 * menu, a dialog's close button and the Recent Videos card the progress toasts point to. Small hosts
 * (the extension popup, whose Generate bar is at the bottom) choose another place. Renders nothing
 * until the first toast has brought the library.
 */
export function StudioToaster({ position = 'bottom-right' }: { position?: ToastPosition | undefined }) {
  const loaded = useSyncExternalStore(subscribe, currentLibrary, currentLibrary);
  if (!loaded) return null;
  const { Toaster } = loaded;
  return <Toaster position={position} toastOptions={TOAST_OPTIONS} />;
}
