import { EXTENSION_STORAGE_KEYS, STORAGE_KEYS, type VideoJob } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { createBackground, PAGE_NOTIFICATION_ID, type BackgroundDeps } from './background-controller.js';
import { notificationIdFor } from './job-notifier.js';
import { JOB_WATCH_ALARM } from './job-watch-alarm.js';
import type { SocketLike } from './live-connection.js';
import { tokenChange } from './session.js';
import {
  fakeAction,
  fakeAlarms,
  fakeFetch,
  fakeNotifications,
  fakeScripting,
  fakeSidePanel,
  fakeStorage,
  fakeTabs,
} from './testing/fake-chrome.js';

const API = 'http://api.test';
const user = { id: 'u1', name: 'Asha', email: 'asha@example.com', role: 'user' as const };
const params = { topic: 'Why cats purr', style: 'curious', language: 'en', duration: 30, voice: 'en-US-JennyNeural' } as const;
const result = { videoUrl: '/output/job-1/why-cats-purr.mp4', filename: 'why-cats-purr.mp4' };

class FakeSocket implements SocketLike {
  connected = false;
  listeners = new Map<string, Array<(...args: unknown[]) => void>>();
  emitted: unknown[][] = [];
  on(event: string, listener: (...args: never[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as (...args: unknown[]) => void]);
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push([event, ...args]);
  }
  disconnect() {
    this.connected = false;
  }
  deliver(event: string, payload?: unknown) {
    if (event === 'connect') this.connected = true;
    for (const listener of this.listeners.get(event) ?? []) listener(payload);
  }
}

function serverJob(status: VideoJob['status'], extra: Partial<VideoJob> = {}): VideoJob {
  return {
    id: 'job-1',
    status,
    progress: status === 'completed' ? 100 : 20,
    currentStep: 'story',
    stepProgress: 0,
    params: { ...params },
    created_at: '2026-01-01T00:00:00.000Z',
    result: status === 'completed' ? result : null,
    error: null,
    steps: Object.fromEntries(
      ['setup', 'story', 'voice', 'images', 'video'].map((s) => [s, { status: 'pending', progress: 0 }]),
    ) as VideoJob['steps'],
    ...extra,
  };
}

/** A worker over fakes; `restart()` builds a fresh one over the same storage, as when Chrome stops and wakes it. */
function harness(server: { jobs: VideoJob[]; rejectToken?: string }) {
  const storage = fakeStorage();
  const action = fakeAction();
  const alarms = fakeAlarms();
  const notifications = fakeNotifications();
  const tabs = fakeTabs();
  const sidePanel = fakeSidePanel();
  const scripting = fakeScripting({
    1: { ok: true, title: 'Lighthouses', url: 'https://example.com/lighthouses#top', text: 'Lighthouses guide ships. '.repeat(20).trim() },
    2: { ok: false, reason: 'no-article' },
  });
  const sockets: FakeSocket[] = [];
  const http = fakeFetch({
    'GET /api/videos': (init) =>
      (init.headers as Record<string, string>).Authorization === `Bearer ${server.rejectToken}`
        ? { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Your session has expired. Please sign in again.' } }
        : { body: { jobs: server.jobs } },
    'POST /api/videos/generate': () => ({ body: { jobId: 'job-1', status: 'queued', message: 'ok' } }),
    'DELETE /api/videos/job-1': () => ({ body: { success: true, status: 'cancelled', message: 'Job cancelled' } }),
    'GET /api/videos/job-9/status': () => ({ body: serverJob('processing', { id: 'job-9', created_at: '2026-01-01T00:05:00.000Z' }) }),
    'POST /auth/extension-handoff/exchange': (init) =>
      JSON.parse(String(init.body)).code === 'c'.repeat(43)
        ? { body: { token: 'ext-token', user } }
        : { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'expired' } },
  });
  const deps: BackgroundDeps = {
    storage,
    action: action as never,
    alarms: alarms as never,
    notifications: notifications as never,
    tabs: tabs as never,
    sidePanel: sidePanel as never,
    scripting: scripting as never,
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    fetch: http.fetch,
    apiBaseUrl: async () => API,
    iconUrl: 'chrome-extension://id/icon-128.png',
    version: '0.1.0',
    now: () => new Date('2026-01-01T00:00:30.000Z'),
  };
  const make = () => {
    const background = createBackground(deps);
    storage.onChanged.addListener((changes, area) => {
      const change = tokenChange(changes, area);
      if (change) void background.tokenChanged(change.token);
    });
    return background;
  };
  return { storage, action, alarms, notifications, tabs, sidePanel, scripting, sockets, http, make };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('background controller', () => {
  it('submits, badges, follows live events and announces the completion once', async () => {
    const server = { jobs: [] as VideoJob[] };
    const h = harness(server);
    const background = h.make();
    await background.session.signIn('tok', user);
    await settle();
    expect(h.sockets).toHaveLength(1);

    const submitted = await background.handleRequest({
      type: 'submit',
      params: {
        ...params,
        visualStyle: 'cinematic',
        resolution: '9:16',
        customPrompt: '',
        enableZoom: true,
        zoomDirection: 'in',
        enableCaptions: false,
        captionStyle: 'tiktok',
        music: 'auto',
      },
    });
    expect(submitted).toMatchObject({ ok: true, jobId: 'job-1' });
    expect(h.action.state.text).toBe('1');
    expect(h.alarms.alarms.has(JOB_WATCH_ALARM)).toBe(true);
    expect(h.sockets[0]!.emitted).toContainEqual(['subscribe', 'job-1']);
    expect(h.http.calls.find((c) => c.url.endsWith('/api/videos/generate'))?.headers.Authorization).toBe('Bearer tok');

    const socket = h.sockets[0]!;
    socket.deliver('job_progress', { jobId: 'job-1', progress: 45, step: 'voice', stepProgress: 30, status: 'processing' });
    await settle();
    expect((await background.store.read()).jobs[0]).toMatchObject({ progress: 45, status: 'processing' });

    socket.deliver('job_completed', { jobId: 'job-1', result });
    socket.deliver('job_completed', { jobId: 'job-1', result });
    await settle();
    expect(h.notifications.created).toEqual([notificationIdFor('job-1')]);
    expect(h.action.state.text).toBe('');
    expect(h.alarms.alarms.has(JOB_WATCH_ALARM)).toBe(false);

    await background.notificationClicked(notificationIdFor('job-1'));
    expect(h.tabs.opened).toEqual([`${API}${result.videoUrl}`]);
  });

  it('catches up after the worker was stopped mid-job', async () => {
    const server = { jobs: [serverJob('processing')] };
    const h = harness(server);
    const first = h.make();
    await first.session.signIn('tok', user);
    await settle();
    expect(h.action.state.text).toBe('1');
    // No notification for what was already known at sign-in: only jobs seen running are announced.
    expect(h.notifications.created).toEqual([]);

    // Chrome stops the worker; the job finishes meanwhile; the alarm wakes a fresh worker.
    server.jobs = [serverJob('completed')];
    const second = h.make();
    await second.alarmFired(JOB_WATCH_ALARM);
    await settle();
    expect(h.notifications.created).toEqual([notificationIdFor('job-1')]);
    expect(h.action.state.text).toBe('');
    await second.wake();
    expect(h.notifications.created).toHaveLength(1);
  });

  it('adds jobs started elsewhere when their events arrive', async () => {
    const h = harness({ jobs: [] });
    const background = h.make();
    await background.session.signIn('tok', user);
    await settle();
    h.sockets[0]!.deliver('job_progress', { jobId: 'job-9', progress: 10, step: 'story', stepProgress: 5, status: 'processing' });
    await settle();
    expect((await background.store.read()).jobs.map((j) => j.id)).toEqual(['job-9']);
    expect(h.action.state.text).toBe('1');
  });

  it('signs out when the server rejects the session, and clears the jobs', async () => {
    const server = { jobs: [serverJob('processing')], rejectToken: undefined as string | undefined };
    const h = harness(server);
    const background = h.make();
    await background.session.signIn('tok', user);
    await settle();
    server.rejectToken = 'tok';
    await background.wake();
    await settle();
    expect(h.storage.local.data[STORAGE_KEYS.token]).toBeUndefined();
    expect(h.storage.local.data[STORAGE_KEYS.authStore]).toBeUndefined();
    expect((await background.store.read()).jobs).toEqual([]);
    expect(h.action.state.text).toBe('');
    expect(await background.handleRequest({ type: 'refresh' })).toEqual({ ok: true });
    expect(await background.handleRequest({ type: 'cancel', jobId: 'job-1' })).toEqual({ ok: false, error: 'Sign in to continue' });
  });

  it('cancels a job', async () => {
    const h = harness({ jobs: [serverJob('processing')] });
    const background = h.make();
    await background.session.signIn('tok', user);
    await settle();
    expect(await background.handleRequest({ type: 'cancel', jobId: 'job-1' })).toEqual({ ok: true, jobId: 'job-1' });
    expect((await background.store.read()).jobs[0]?.status).toBe('cancelled');
    expect(h.action.state.text).toBe('');
  });

  it('signs in with a hand-off code and answers pings', async () => {
    const h = harness({ jobs: [] });
    const background = h.make();
    expect(await background.handleExternal({ type: 'ping' })).toEqual({ ok: true, version: '0.1.0' });
    expect(await background.handleExternal({ type: 'handoff', code: 'd'.repeat(43) })).toEqual({ ok: false, error: 'expired' });
    expect(await background.handleExternal({ type: 'handoff', code: 'c'.repeat(43) })).toEqual({ ok: true, user });
    expect(await background.session.token()).toBe('ext-token');
    const exchange = h.http.calls.find((c) => c.url.endsWith('/exchange'));
    expect(exchange?.headers.Authorization).toBeUndefined();
    await settle();
    expect(h.sockets.length).toBeGreaterThan(0);
  });

  it('sends an article source whole, and keeps only its credit in the stored job list', async () => {
    const h = harness({ jobs: [] });
    const background = h.make();
    await background.session.signIn('tok', user);
    await settle();
    const source = {
      kind: 'article' as const,
      text: 'Lighthouses guide ships home. '.repeat(200),
      title: 'Lighthouses',
      url: 'https://coast.example/l',
    };
    const full = {
      ...params,
      visualStyle: 'cinematic',
      resolution: '9:16',
      customPrompt: '',
      enableZoom: true,
      zoomDirection: 'in',
      enableCaptions: false,
      captionStyle: 'tiktok',
      music: 'auto',
    } as const;
    expect(await background.handleRequest({ type: 'submit', params: { ...full, source } })).toMatchObject({ ok: true, jobId: 'job-1' });
    const sent = h.http.calls.find((c) => c.url.endsWith('/api/videos/generate'))?.body as { source: unknown };
    expect(sent.source).toEqual(source);
    expect((await background.store.read()).jobs[0]?.params.source).toEqual({
      kind: 'article',
      title: 'Lighthouses',
      url: 'https://coast.example/l',
    });
    expect(JSON.stringify(h.storage.local.data)).not.toContain('Lighthouses guide ships home');
  });

  it('opens the side panel with a topic from the context menu', async () => {
    const h = harness({ jobs: [] });
    const background = h.make();
    await background.contextMenuClicked(
      { menuItemId: 'reelsmith-create-video', selectionText: 'The moon landing' },
      { windowId: 4, id: 1 },
    );
    expect(h.sidePanel.opened).toEqual([{ windowId: 4 }]);
    expect(h.storage.session.data[EXTENSION_STORAGE_KEYS.pendingRequest]).toMatchObject({
      request: { kind: 'topic', topic: 'The moon landing' },
    });
  });

  it('reads the page in the tab for "Make a video of this page", and says why when it cannot', async () => {
    const h = harness({ jobs: [] });
    const background = h.make();
    await background.contextMenuClicked({ menuItemId: 'reelsmith-page-video' }, { windowId: 4, id: 1 });
    expect(h.scripting.injected).toEqual([{ tabId: 1, files: ['page-reader.js'] }]);
    expect(h.sidePanel.opened).toEqual([{ windowId: 4 }]);
    expect(h.storage.session.data[EXTENSION_STORAGE_KEYS.pendingRequest]).toMatchObject({
      request: {
        kind: 'article',
        title: 'Lighthouses',
        url: 'https://example.com/lighthouses#top',
        text: expect.stringMatching(/^Lighthouses guide ships\./),
      },
    });

    await h.storage.session.remove(EXTENSION_STORAGE_KEYS.pendingRequest);
    await background.contextMenuClicked({ menuItemId: 'reelsmith-page-video' }, { windowId: 4, id: 2 });
    expect(h.storage.session.data[EXTENSION_STORAGE_KEYS.pendingRequest]).toBeUndefined();
    expect(h.notifications.shown.get(PAGE_NOTIFICATION_ID)).toMatchObject({
      title: 'Make a video of this page',
      message: expect.stringMatching(/no article/),
    });
  });

  it('forgets the session when the API origin changes', async () => {
    const h = harness({ jobs: [] });
    const background = h.make();
    await background.session.signIn('tok', user);
    await settle();
    expect(await background.handleRequest({ type: 'api-origin-changed' })).toEqual({ ok: true });
    expect(await background.session.token()).toBeNull();
  });
});
