import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useStore } from 'zustand';
import { useVideoList, videoListQueryKey } from './video-queries.js';
import { usePlatform, type Platform } from '../../platform.js';
import { useAuth, useServices, type CoreServices, type StudioServices } from '../../services.js';
import { createJobToasts } from './job-notifications.js';
import { createSocketIoJobClient } from './job-realtime.js';
import { createJobService, type JobEventEffects, type JobService } from './job-service.js';
import { mergeJob, sortedJobs, type JobStore, type TrackedJob } from './tracked-jobs-store.js';

/**
 * Makes the job port for a host, given the studio's effects (toasts, auto-download, list refresh).
 * The web needs no provider: it gets REST + socket.io. The extension passes one backed by its
 * background worker, so every extension view submits and follows jobs one way.
 */
export type JobServiceFactory = (context: { services: CoreServices; platform: Platform; effects: JobEventEffects }) => JobService;

const JobServiceFactoryContext = createContext<JobServiceFactory | null>(null);

export function JobServiceProvider({ createJobService, children }: { createJobService: JobServiceFactory; children?: ReactNode }) {
  return <JobServiceFactoryContext.Provider value={createJobService}>{children}</JobServiceFactoryContext.Provider>;
}

/** Storage stats of the plan area (billing's query key prefix). */
const storageStatsQueryKey = ['storage', 'stats'] as const;

/** What the server may answer differently once a job ends (billing's query key prefix). */
const canGenerateQueryKey = ['payments', 'can-generate'] as const;

/**
 * A job that finished changes what other parts read (the top bar's active count, the plan area's
 * stored videos, the month's usage, and whether the free video is still there: a failed one is
 * given back), so those are re-read at once instead of at their next refresh.
 */
function withListRefresh(effects: JobEventEffects, services: Pick<StudioServices, 'queryClient' | 'authStore'>): JobEventEffects {
  const { queryClient, authStore } = services;
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: videoListQueryKey });
    void queryClient.invalidateQueries({ queryKey: storageStatsQueryKey });
    void queryClient.invalidateQueries({ queryKey: canGenerateQueryKey });
    if (authStore.getState().isAuthenticated) void authStore.getState().fetchSubscription();
  };
  return {
    progress: effects.progress,
    completed(event, job) {
      effects.completed(event, job);
      refresh();
    },
    failed(event, job) {
      effects.failed(event, job);
      refresh();
    },
    cancelled(job) {
      effects.cancelled?.(job);
      refresh();
    },
  };
}

// One job service per mounted app: every page of the app shares its store and its connection.
const servicesJobs = new WeakMap<CoreServices, JobService>();

export function useJobService(): JobService {
  const services = useServices();
  const queryClient = useQueryClient();
  const platform = usePlatform();
  const createHostJobService = useContext(JobServiceFactoryContext);
  let service = servicesJobs.get(services);
  if (!service) {
    const effects = withListRefresh(createJobToasts({ storage: platform.storage, api: services.api, platform }), {
      queryClient,
      authStore: services.authStore,
    });
    service = createHostJobService
      ? createHostJobService({ services, platform, effects })
      : createJobService({
          api: services.api,
          realtime: createSocketIoJobClient({ url: platform.apiBaseUrl }),
          effects,
          // A revoked session (an admin suspended the account) signs the studio out at once: the profile read gets 401.
          onClosedByServer: () => void services.authStore.getState().refreshUser(),
        });
    servicesJobs.set(services, service);
  }
  return service;
}

export function useJobStore<T>(selector: (state: JobStore) => T): T {
  return useStore(useJobService().store, selector);
}

/**
 * Keeps the live connection open while signed in and this component is mounted (the studio and
 * My Videos mount it; mounting it once in the app shell keeps it open everywhere). Signing out
 * closes it and forgets the jobs.
 */
export function useJobsConnection(): void {
  const service = useJobService();
  const token = useAuth((s) => (s.isAuthenticated ? s.token : null));
  useEffect(() => {
    if (!token) {
      service.stop();
      return;
    }
    return service.retain(token);
  }, [service, token]);
}

/**
 * The signed-in user's jobs, newest first: the 10 s list refresh merged with the live events,
 * so neither can move a job backwards.
 */
export function useJobs(): { jobs: TrackedJob[]; isLoading: boolean } {
  const service = useJobService();
  const { jobs: listed, isLoading } = useVideoList();
  useEffect(() => {
    service.store.getState().mergeServerJobs(listed);
  }, [service, listed]);
  const byId = useStore(service.store, (s) => s.jobs);
  // The list is merged here too, so a fresh list shows before the effect above has stored it.
  const jobs = useMemo(() => {
    const merged = { ...byId };
    for (const job of listed) merged[job.id] = mergeJob(byId[job.id], job);
    return sortedJobs(merged);
  }, [byId, listed]);
  return { jobs, isLoading };
}
