import { TOAST_DURATIONS_MS } from '@reelsmith/contracts';
import { useSyncExternalStore, type CSSProperties } from 'react';
import type { DefaultToastOptions, Renderable, Toast, ToastOptions, ToastPosition, ValueFunction } from 'react-hot-toast';

export type { ToastPosition };

/**
 * Toast durations: 4000 ms for blank and error, 2000 ms for success, unlimited for loading, and a
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
 * rather than in the first load, which stays small: a visitor who never triggers one never downloads it.
 * `toast` keeps the library's API. It returns ids at once (its own when the caller gave none), so a
 * call made while the library loads is shown, updated, dismissed or removed in order once it is in.
 * When the library cannot be fetched (the connection dropped before the first toast, and the toast
 * is "You are offline"), the message still shows, in a plain status line, and the next toast tries
 * the library again.
 */
type Library = typeof import('react-hot-toast');
type Message = ValueFunction<Renderable, Toast> | Renderable;
type Kind = 'blank' | 'success' | 'error' | 'loading' | 'custom';

interface FallbackToast {
  id: string;
  kind: Kind;
  message: Renderable;
}

let library: Library | null = null;
let loading: Promise<Library> | null = null;
let fallback: readonly FallbackToast[] = [];
const subscribers = new Set<() => void>();
let lastId = 0;

const notifyAll = () => {
  for (const notify of subscribers) notify();
};

function loadLibrary(): Promise<Library> {
  loading ??= import('react-hot-toast').then(
    (module) => {
      library = module;
      notifyAll();
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

function durationOf(kind: Kind, options?: ToastOptions): number {
  if (options?.duration !== undefined) return options.duration;
  const byKind = kind === 'custom' ? undefined : TOAST_OPTIONS[kind]?.duration;
  return byKind ?? TOAST_OPTIONS.duration ?? TOAST_DURATIONS_MS.general;
}

function removeFallback(id?: string): void {
  const next = id === undefined ? [] : fallback.filter((item) => item.id !== id);
  if (next.length === fallback.length) return;
  fallback = next;
  notifyAll();
}

function showFallback(kind: Kind, id: string, message: Message, options?: ToastOptions): void {
  if (typeof message === 'function') return;
  fallback = [...fallback.filter((item) => item.id !== id), { id, kind, message }];
  notifyAll();
  const duration = durationOf(kind, options);
  if (Number.isFinite(duration)) setTimeout(() => removeFallback(id), duration);
}

function show(kind: Kind, message: Message, options?: ToastOptions): string {
  const id = options?.id ?? `rs-toast-${(lastId += 1)}`;
  const render = ({ default: hot }: Library) => {
    const withId = { ...options, id };
    if (kind === 'blank') hot(message, withId);
    else if (kind === 'custom') hot.custom(message, withId);
    else hot[kind](message, withId);
  };
  if (library) render(library);
  else
    loadLibrary().then(render, (error: unknown) => {
      console.warn('Loading the notifications failed; showing the message plainly', error);
      showFallback(kind, id, message, options);
    });
  return id;
}

/** Before the library is in, only the plain fallback can be showing, so a dismiss or remove waits for a load in flight. */
function hide(action: 'dismiss' | 'remove', id?: string): void {
  removeFallback(id);
  if (library) library.default[action](id);
  else if (loading)
    loading.then(
      ({ default: hot }) => hot[action](id),
      () => undefined,
    );
}

export const toast = Object.assign((message: Message, options?: ToastOptions) => show('blank', message, options), {
  success: (message: Message, options?: ToastOptions) => show('success', message, options),
  error: (message: Message, options?: ToastOptions) => show('error', message, options),
  loading: (message: Message, options?: ToastOptions) => show('loading', message, options),
  custom: (message: Message, options?: ToastOptions) => show('custom', message, options),
  dismiss: (id?: string) => hide('dismiss', id),
  remove: (id?: string) => hide('remove', id),
});

const subscribe = (notify: () => void) => {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
};
const currentLibrary = () => library;
const currentFallback = () => fallback;

const FALLBACK_PLACE: Record<ToastPosition, CSSProperties> = {
  'top-left': { top: 16, left: 16 },
  'top-center': { top: 16, left: '50%', transform: 'translateX(-50%)' },
  'top-right': { top: 16, right: 16 },
  'bottom-left': { bottom: 16, left: 16 },
  'bottom-center': { bottom: 16, left: '50%', transform: 'translateX(-50%)' },
  'bottom-right': { bottom: 16, right: 16 },
};

/**
 * Bottom right by default: at the top a toast covered the extension banner's Install Now, the avatar
 * menu, a dialog's close button and the Recent Videos card the progress toasts point to. Small hosts
 * (the extension popup, whose Generate bar is at the bottom) choose another place. Renders nothing
 * until the first toast has brought the library (or, failing that, its plain status line).
 */
export function StudioToaster({ position = 'bottom-right' }: { position?: ToastPosition | undefined }) {
  const loaded = useSyncExternalStore(subscribe, currentLibrary, currentLibrary);
  const plain = useSyncExternalStore(subscribe, currentFallback, currentFallback);
  if (loaded) {
    const { Toaster } = loaded;
    return <Toaster position={position} toastOptions={TOAST_OPTIONS} />;
  }
  if (plain.length === 0) return null;
  return (
    <div className="rs-toast-fallback" style={{ position: 'fixed', zIndex: 9999, display: 'grid', gap: 8, ...FALLBACK_PLACE[position] }}>
      {plain.map((item) => (
        <div
          key={item.id}
          className="rs-toast"
          role={item.kind === 'error' ? 'alert' : 'status'}
          aria-live={item.kind === 'error' ? 'assertive' : 'polite'}
          style={{ ...TOAST_OPTIONS.style, padding: '8px 12px' }}
        >
          {item.message}
        </div>
      ))}
    </div>
  );
}
