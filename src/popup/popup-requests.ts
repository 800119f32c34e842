import { QUERY_CLIENT_DEFAULTS, type CanGenerateResponse, type VoiceLanguage } from '@reelsmith/contracts';
import {
  askCanGenerate,
  generationAccess,
  useApi,
  useAuth,
  useSettledVoiceLanguage,
  type GenerationAccess,
  type VoiceListState,
} from '@reelsmith/studio/popup';
import { useCallback, useEffect, useRef, useState } from 'react';

/** React Query's first retry delay, which the studio's reads wait before their one retry. */
export const RETRY_DELAY_MS = 1000;

export interface ResourceState<T> {
  data: T | undefined;
  isLoading: boolean;
  isError: boolean;
}

/**
 * One GET per key while the popup is open, retried once like the studio's reads.
 * The popup shows one screen for a few seconds: it needs none of a query cache's sharing or
 * refetching, and React Query would take a tenth of its JavaScript budget (100 KB gzip). A new key
 * aborts the request for the old one, so an answer for a previous key is never shown.
 */
export function useApiResource<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): ResourceState<T> {
  const [state, setState] = useState<{ key: string; data?: T; failed: boolean } | null>(null);
  // The request for a key is the one given with it; a new closure for the same key asks nothing.
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const { signal } = controller;
    const attempt = (retriesLeft: number): Promise<T> =>
      loadRef.current(signal).catch(async (error: unknown) => {
        if (retriesLeft === 0 || signal.aborted) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
        if (signal.aborted) throw error;
        return attempt(retriesLeft - 1);
      });
    attempt(QUERY_CLIENT_DEFAULTS.retry).then(
      (data) => !signal.aborted && setState({ key, data, failed: false }),
      () => !signal.aborted && setState({ key, failed: true }),
    );
    return () => controller.abort();
  }, [key]);
  const current = key !== null && state?.key === key ? state : null;
  return { data: current?.data, isLoading: key !== null && current === null, isError: current?.failed ?? false };
}

/** GET /voices for the popup's language, 300 ms after it settles (the studio's rule), from the server's voice provider. */
export function usePopupVoices(language: string): VoiceListState {
  const api = useApi();
  const { settled, code } = useSettledVoiceLanguage(language, undefined);
  const voices = useApiResource(code, (signal) => api.call('voices', { query: { language: code as VoiceLanguage }, signal }));
  return { ...voices, settled, settledLanguage: code };
}

/** The popup's generation access: can-generate asked once on open and again before each submit; the subscription from the auth store. */
export function usePopupGenerationAccess(): GenerationAccess {
  const api = useApi();
  const signedIn = useAuth((s) => s.isAuthenticated);
  const userId = useAuth((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  const subscription = useAuth((s) => (s.isAuthenticated ? (s.subscription?.subscription ?? null) : null));
  const loadingSubscription = useAuth((s) => s.isLoadingSubscription);
  const canGenerate = useApiResource(userId, (signal) => askCanGenerate(api, undefined, signal));
  // Part of a submit: asked once, now (offline it fails at once), never retried later by itself.
  const check = useCallback(
    async (duration?: number): Promise<CanGenerateResponse | null> => {
      if (userId === null) return null;
      return askCanGenerate(api, duration).catch(() => null);
    },
    [api, userId],
  );
  return generationAccess({
    signedIn,
    subscription,
    canGenerate: canGenerate.data ?? null,
    loading: loadingSubscription || canGenerate.isLoading,
    check,
  });
}
