import {
  EXTENSION_HANDOFF_MESSAGES,
  JOB_LIST_LIMIT,
  MESSAGES,
  newJob,
  sourceCredit,
  type ExtensionExternalRequest,
  type ExtensionJobState,
  type ExtensionRequest,
  type ExtensionResponse,
  type GenerationParams,
  type VideoJob,
} from '@reelsmith/contracts';
import { ApiError, createApiClient, errorMessage, type ApiClient } from '@reelsmith/studio/api-client';
import { showActiveJobCount, type ActionLike } from './badge.js';
import { readArticleInTab, type ScriptingLike } from '../extension-host/page-article.js';
import { handleContextMenuClick, PAGE_VIDEO_MENU_TITLE, type SessionAreaLike, type SidePanelLike } from './context-menu.js';
import { notifyJobFinished, openNotifiedJob, type NotificationsLike, type TabsLike } from './job-notifier.js';
import {
  activeJobs,
  cancelled,
  completed,
  failed,
  hasJob,
  markNotified,
  mergeServerJob,
  mergeServerJobs,
  newlyFinished,
  progressed,
  putJob,
} from './job-state.js';
import { JobStore, type StorageAreaLike } from './stored-job-list.js';
import { JOB_WATCH_ALARM, syncJobWatchAlarm, type AlarmsLike } from './job-watch-alarm.js';
import { LiveConnection, type SocketFactory } from './live-connection.js';
import { ExtensionSession } from './session.js';

export interface BackgroundDeps {
  storage: { local: StorageAreaLike; session: SessionAreaLike };
  action: ActionLike;
  alarms: AlarmsLike;
  notifications: NotificationsLike;
  tabs: TabsLike;
  sidePanel: SidePanelLike;
  /** Reads a page's article in the page, for "Make a video of this page" in its context menu. */
  scripting: ScriptingLike;
  createSocket: SocketFactory;
  fetch: typeof fetch;
  /** The API origin in use (the build's, or the options page's). */
  apiBaseUrl: () => Promise<string>;
  /** Absolute URL of the notification icon. */
  iconUrl: string;
  version: string;
  now?: () => Date;
  log?: (message: string, detail?: unknown) => void;
}

export type Background = ReturnType<typeof createBackground>;

/** The one notification that says why a page could not be read (a new failure replaces it). */
export const PAGE_NOTIFICATION_ID = 'reelsmith-page';

/**
 * Everything the service worker does, over injected chrome.* slices so it can be tested; the
 * service worker file only registers listeners that call into this.
 */
export function createBackground(deps: BackgroundDeps) {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? (() => undefined);
  const session = new ExtensionSession(deps.storage.local);
  const store = new JobStore(deps.storage.local, now);

  const client = async (token: string | null): Promise<ApiClient> =>
    createApiClient({ baseUrl: await deps.apiBaseUrl(), getToken: () => token, fetch: deps.fetch });

  /** A revoked or expired session (e.g. logout elsewhere) signs the extension out. */
  async function signOutOn401(error: unknown): Promise<void> {
    if (error instanceof ApiError && error.status === 401) {
      log('session rejected by the server: signing out');
      await session.signOut();
      await signedOut();
    }
  }

  /** Applies a change, announces jobs that just finished (once each), and updates badge and alarm. */
  async function commit(change: (state: ExtensionJobState) => ExtensionJobState): Promise<ExtensionJobState> {
    let finished: VideoJob[] = [];
    const { after } = await store.update((state) => {
      const next = change(state);
      finished = newlyFinished(state, next);
      return markNotified(
        next,
        finished.map((job) => job.id),
      );
    });
    for (const job of finished) {
      await notifyJobFinished(deps.notifications, job, deps.iconUrl).catch((error: unknown) => log('notification failed', error));
    }
    const active = activeJobs(after).length;
    await showActiveJobCount(deps.action, active);
    await syncJobWatchAlarm(deps.alarms, active);
    return after;
  }

  let reconciling: Promise<void> | null = null;
  /** Re-reads the user's jobs over REST, catching up with anything missed while asleep. */
  function reconcile(): Promise<void> {
    reconciling ??= (async () => {
      const token = await session.token();
      if (!token) return;
      try {
        const { jobs } = await (await client(token)).call('listVideos', { query: { limit: JOB_LIST_LIMIT } });
        await commit((state) => mergeServerJobs(state, jobs, now()));
      } catch (error) {
        await signOutOn401(error);
        log('reconciling jobs failed', error);
      }
    })().finally(() => {
      reconciling = null;
    });
    return reconciling;
  }

  /** A live event about a job this worker has not seen (submitted from the web app): fetch it first. */
  async function ensureKnown(jobId: string): Promise<void> {
    if (hasJob(await store.read(), jobId)) return;
    const token = await session.token();
    if (!token) return;
    try {
      const job = await (await client(token)).call('videoStatus', { params: { id: jobId } });
      await commit((state) => mergeServerJob(state, job));
    } catch (error) {
      await signOutOn401(error);
      log('fetching a job status failed', error);
    }
  }

  const live = new LiveConnection(
    deps.createSocket,
    {
      progress: (event) => void ensureKnown(event.jobId).then(() => commit((state) => progressed(state, event))),
      completed: (event) => void ensureKnown(event.jobId).then(() => commit((state) => completed(state, event))),
      failed: (event) => void ensureKnown(event.jobId).then(() => commit((state) => failed(state, event))),
      connectionChanged: (connected) => {
        void store.update((state) => (state.connected === connected ? state : { ...state, connected }));
        if (connected) {
          void reconcile().then(async () => {
            for (const job of activeJobs(await store.read())) live.subscribe(job.id);
          });
        }
      },
      connectError: (error) => {
        log('live connection refused', error.message);
        void reconcile();
      },
    },
    log,
  );

  async function connect(token: string): Promise<void> {
    live.connect(await deps.apiBaseUrl(), token);
  }

  async function signedOut(): Promise<void> {
    live.disconnect();
    await store.clear();
    await showActiveJobCount(deps.action, 0);
    await syncJobWatchAlarm(deps.alarms, 0);
  }

  async function submit(params: GenerationParams): Promise<ExtensionResponse> {
    const token = await session.token();
    if (!token) return { ok: false, error: MESSAGES.authRequired };
    try {
      const { jobId, status, message } = await (await client(token)).call('generateVideo', { body: params });
      // The job list in chrome.storage keeps the source's credit, not its text (an article can be 200 KB).
      const job = newJob(jobId, params, now());
      await commit((state) =>
        putJob(state, params.source ? { ...job, params: { ...job.params, source: sourceCredit(params.source) } } : job),
      );
      await connect(token);
      live.subscribe(jobId);
      return { ok: true, jobId, status, message };
    } catch (error) {
      await signOutOn401(error);
      return { ok: false, error: errorMessage(error, MESSAGES.submitFailed) };
    }
  }

  async function cancel(jobId: string): Promise<ExtensionResponse> {
    const token = await session.token();
    if (!token) return { ok: false, error: MESSAGES.authRequired };
    try {
      await (await client(token)).call('deleteVideo', { params: { id: jobId } });
      await commit((state) => cancelled(state, jobId));
      return { ok: true, jobId };
    } catch (error) {
      await signOutOn401(error);
      return { ok: false, error: errorMessage(error, MESSAGES.cancelJobFailed) };
    }
  }

  /** A retried or re-rendered job: the server's copy replaces the finished one the worker keeps. */
  async function reopen(jobId: string): Promise<ExtensionResponse> {
    const token = await session.token();
    if (!token) return { ok: false, error: MESSAGES.authRequired };
    try {
      const job = await (await client(token)).call('videoStatus', { params: { id: jobId } });
      await commit((state) => putJob(state, job));
      await connect(token);
      live.subscribe(jobId);
      return { ok: true, jobId };
    } catch (error) {
      await signOutOn401(error);
      return { ok: false, error: errorMessage(error, MESSAGES.notFound) };
    }
  }

  async function handoff(code: string): Promise<ExtensionResponse> {
    try {
      const { token, user } = await (await client(null)).call('extensionHandoffExchange', { body: { code }, token: null });
      await session.signIn(token, user);
      await tokenChanged(token);
      return { ok: true, user };
    } catch (error) {
      return { ok: false, error: errorMessage(error, EXTENSION_HANDOFF_MESSAGES.failed) };
    }
  }

  async function tokenChanged(token: string | null): Promise<void> {
    if (!token) {
      await signedOut();
      return;
    }
    await connect(token);
    await reconcile();
  }

  return {
    store,
    session,
    live,
    reconcile,

    /** Every start of the worker (install, browser start-up, alarm, message, or any other wake). */
    async wake(): Promise<void> {
      const token = await session.token();
      if (!token) {
        await signedOut();
        return;
      }
      await connect(token);
      await reconcile();
    },

    tokenChanged,

    async handleRequest(request: ExtensionRequest): Promise<ExtensionResponse> {
      switch (request.type) {
        case 'submit':
          return submit(request.params);
        case 'cancel':
          return cancel(request.jobId);
        case 'reopen':
          return reopen(request.jobId);
        case 'refresh': {
          const token = await session.token();
          if (token) await connect(token);
          await reconcile();
          return { ok: true };
        }
        case 'api-origin-changed':
          // The stored token belongs to the previous server.
          await session.signOut();
          await signedOut();
          return { ok: true };
      }
    },

    async handleExternal(request: ExtensionExternalRequest): Promise<ExtensionResponse> {
      if (request.type === 'ping') return { ok: true, version: deps.version };
      return handoff(request.code);
    },

    async alarmFired(name: string): Promise<void> {
      if (name !== JOB_WATCH_ALARM) return;
      const token = await session.token();
      if (token) await connect(token);
      await reconcile();
    },

    async notificationClicked(notificationId: string): Promise<void> {
      await openNotifiedJob(
        deps,
        notificationId,
        async (jobId) => (await store.read()).jobs.find((job) => job.id === jobId),
        await deps.apiBaseUrl(),
      );
    },

    contextMenuClicked(
      info: Pick<chrome.contextMenus.OnClickData, 'menuItemId' | 'selectionText'>,
      tab: Pick<chrome.tabs.Tab, 'windowId' | 'id'> | undefined,
    ) {
      return handleContextMenuClick(
        {
          sidePanel: deps.sidePanel,
          session: deps.storage.session,
          readPage: (tabId) => readArticleInTab(deps.scripting, tabId),
          report: async (message) => {
            await deps.notifications.create(PAGE_NOTIFICATION_ID, {
              type: 'basic',
              iconUrl: deps.iconUrl,
              title: PAGE_VIDEO_MENU_TITLE,
              message,
              priority: 1,
            });
          },
          now,
          log,
        },
        info,
        tab,
      );
    },
  };
}
