import { EMBED_MESSAGE_SOURCE, embedCommandEnvelopeSchema, type EmbedCommand, type EmbedEvent } from '@reelsmith/contracts';
import type { StoreApi } from 'zustand/vanilla';
import type { AuthStore } from '../auth/auth-store.js';
import type { JobStore } from '../shared/jobs/tracked-jobs-store.js';
import type { EmbedBatches } from './embed-batches.js';

export interface EmbedBridgeOptions {
  /** The partner page's origin; nothing is posted anywhere else. */
  parentOrigin: string;
  post(message: unknown, targetOrigin: string): void;
  authStore: StoreApi<AuthStore>;
  jobStore: StoreApi<JobStore>;
  /** The batches queued in this embed, each reported once when it ends. */
  batches: EmbedBatches;
  /** Makes /output/… URLs absolute (the partner page is on another origin). */
  absoluteUrl(path: string): string;
}

/**
 * Reports what happens in the embedded studio to the partner page: sign-in state, the jobs
 * started here (created, progress, completed, failed) and the end of the batches queued here.
 * Returns the function that stops it.
 */
export function startEmbedBridge({ parentOrigin, post, authStore, jobStore, batches, absoluteUrl }: EmbedBridgeOptions): () => void {
  const send = (event: EmbedEvent) => post({ source: EMBED_MESSAGE_SOURCE, event }, parentOrigin);
  send({ type: 'ready' });

  let signedIn: boolean | null = null;
  const onAuth = (state: AuthStore) => {
    if (state.isLoading) return;
    const now = state.isAuthenticated && state.user !== null;
    if (now === signedIn) return;
    // The first settled state is reported only when signed in; "signed-out" means a sign-out.
    if (now || signedIn !== null) send({ type: now ? 'signed-in' : 'signed-out' });
    signedIn = now;
  };
  onAuth(authStore.getState());
  const stopAuth = authStore.subscribe(onAuth);

  /** Jobs submitted from this embed, with what was last reported about each. */
  const reported = new Map<string, { progress: number; step: string | null; done: boolean }>();
  const onJobs = (state: JobStore) => {
    for (const job of Object.values(state.jobs)) {
      let seen = reported.get(job.id);
      if (!seen) {
        // Only a job submitted here carries stepText before the server reports it.
        if (job.stepText === undefined) continue;
        seen = { progress: -1, step: null, done: false };
        reported.set(job.id, seen);
        send({ type: 'job-created', jobId: job.id });
      }
      if (seen.done) continue;
      if (job.status === 'completed' && job.result) {
        seen.done = true;
        send({
          type: 'job-completed',
          jobId: job.id,
          videoUrl: absoluteUrl(job.result.videoUrl),
          ...(job.result.posterUrl ? { posterUrl: absoluteUrl(job.result.posterUrl) } : {}),
          ...(job.result.title ? { title: job.result.title } : {}),
          ...(job.result.durationSeconds !== undefined ? { durationSeconds: job.result.durationSeconds } : {}),
          ...(job.result.source ? { source: job.result.source } : {}),
          ...(job.result.attributions?.length ? { attributions: job.result.attributions } : {}),
        });
      } else if (job.status === 'failed' || job.status === 'cancelled') {
        seen.done = true;
        send({ type: 'job-failed', jobId: job.id, error: job.error ?? job.status });
      } else if (job.currentStep && (job.progress !== seen.progress || job.currentStep !== seen.step)) {
        seen.progress = job.progress;
        seen.step = job.currentStep;
        send({ type: 'job-progress', jobId: job.id, progress: job.progress, step: job.currentStep });
      }
    }
  };
  const stopJobs = jobStore.subscribe(onJobs);
  const stopBatches = batches.onEnded(({ batchId, status, counts }) => send({ type: 'batch-completed', batchId, status, counts }));
  return () => {
    stopAuth();
    stopJobs();
    stopBatches();
  };
}

/** A command from the partner page, or null for anything else (another origin or window, another shape). */
export function parseEmbedCommand(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  parentOrigin: string,
  parent: unknown,
): EmbedCommand | null {
  if (event.origin !== parentOrigin || event.source !== parent) return null;
  const parsed = embedCommandEnvelopeSchema.safeParse(event.data);
  return parsed.success ? parsed.data.command : null;
}
