import {
  ADMIN_USER_MESSAGES,
  API_KEY_HEADER,
  MESSAGES,
  adminActionResponseSchema,
  adminUserDetailResponseSchema,
  adminUsersResponseSchema,
  auditLogResponseSchema,
  systemHealthResponseSchema,
} from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { MIGRATIONS } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  FakePipeline,
  PASSWORD,
  registerUser,
  subscribe,
  videoBody,
  waitFor,
  waitForStatus,
  type TestUser,
} from './server-jobs-fakes.js';

const ADMIN_EMAIL = 'ops-admin@example.com';

describe.each(TEST_DIALECTS)('admin User Management, audit log and System Health on %s', (dialect) => {
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let baseUrl: string;
  let admin: TestUser;
  let user: TestUser;
  const sockets: Socket[] = [];

  const post = (url: string, token: string, payload: unknown) =>
    app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload: payload as object });
  const get = (url: string, token: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ ADMIN_EMAILS: ADMIN_EMAIL }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const registered = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Ops Admin', email: ADMIN_EMAIL, password: PASSWORD },
    });
    const body = registered.json() as { user: { id: string }; token: string; api_key: { key: string } };
    // As if the mailed link was opened: ADMIN_EMAILS applies to verified addresses only; the sign-in applies it.
    await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', body.user.id).execute();
    const signedIn = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: ADMIN_EMAIL, password: PASSWORD } });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    admin = { id: body.user.id, token: (signedIn.json() as { token: string }).token, apiKey: body.api_key.key, email: ADMIN_EMAIL };
    user = await registerUser(app, 'creator');
  }, 60_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.close();
    await database?.cleanup();
  });

  it('refuses every admin route to a signed-in user (403) and to nobody (401)', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${admin.id}`],
      ['POST', `/api/admin/users/${admin.id}/suspend`, { reason: 'not allowed' }],
      ['POST', `/api/admin/users/${admin.id}/reactivate`, { reason: 'not allowed' }],
      ['POST', `/api/admin/users/${user.id}/role`, { role: 'admin', reason: 'not allowed' }],
      ['POST', `/api/admin/users/${user.id}/grant-plan`, { planId: 'pro_plan', days: 30, reason: 'not allowed' }],
      ['POST', `/api/admin/users/${user.id}/reset-usage`, { reason: 'not allowed' }],
      ['POST', `/api/admin/users/${user.id}/videos/x/delete`, { reason: 'not allowed' }],
      ['GET', '/api/admin/audit-log'],
      ['GET', '/api/admin/system-health'],
    ];
    for (const [method, url, payload] of routes) {
      const asUser = await app.inject({
        method: method as 'GET',
        url,
        headers: bearer(user),
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(asUser.statusCode, `${method} ${url}`).toBe(403);
      const anonymous = await app.inject({ method: method as 'GET', url, ...(payload ? { payload: payload as object } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('lists users with search, filters, sort and paging, with plan and video counts', async () => {
    await subscribe(app, user.id, 'essentials_plan');
    const jobId = (await post('/api/videos/generate', user.token, videoBody('Volcanoes'))).json().jobId as string;
    await waitForStatus(app, user, jobId, 'completed');

    const all = adminUsersResponseSchema.parse((await get('/api/admin/users', admin.token)).json());
    expect(all.total).toBe(2);
    expect(all.pageSize).toBe(20);
    const row = all.users.find((entry) => entry.id === user.id)!;
    expect(row).toMatchObject({
      email: user.email,
      role: 'user',
      status: 'active',
      plan: 'essentials_plan',
      planComp: false,
      videosThisMonth: 1,
      totalVideos: 1,
    });
    expect(row.lastSignInAt).not.toBeNull();

    const searched = adminUsersResponseSchema.parse(
      (await get(`/api/admin/users?search=${encodeURIComponent(user.email.slice(0, 10).toUpperCase())}`, admin.token)).json(),
    );
    expect(searched.users.map((entry) => entry.id)).toEqual([user.id]);
    const byName = adminUsersResponseSchema.parse((await get('/api/admin/users?search=ops%20adm', admin.token)).json());
    expect(byName.users.map((entry) => entry.id)).toEqual([admin.id]);
    const wildcard = adminUsersResponseSchema.parse((await get('/api/admin/users?search=%25', admin.token)).json());
    expect(wildcard.total).toBe(0);
    expect(
      adminUsersResponseSchema.parse((await get('/api/admin/users?role=admin', admin.token)).json()).users.map((entry) => entry.id),
    ).toEqual([admin.id]);
    expect(
      adminUsersResponseSchema.parse((await get('/api/admin/users?plan=free', admin.token)).json()).users.map((entry) => entry.id),
    ).toEqual([admin.id]);
    expect(
      adminUsersResponseSchema.parse((await get('/api/admin/users?plan=essentials_plan&status=active', admin.token)).json()).total,
    ).toBe(1);
    expect(adminUsersResponseSchema.parse((await get('/api/admin/users?sort=-totalVideos', admin.token)).json()).users[0]!.id).toBe(
      user.id,
    );
    expect(adminUsersResponseSchema.parse((await get('/api/admin/users?sort=totalVideos', admin.token)).json()).users[0]!.id).toBe(
      admin.id,
    );
    expect(adminUsersResponseSchema.parse((await get('/api/admin/users?page=2', admin.token)).json()).users).toEqual([]);
    const bad = await get('/api/admin/users?sort=password&page=0', admin.token);
    expect(bad.statusCode).toBe(400);

    const detail = adminUserDetailResponseSchema.parse((await get(`/api/admin/users/${user.id}`, admin.token)).json());
    expect(detail.videos).toHaveLength(1);
    expect(detail.videos[0]).toMatchObject({ id: jobId, status: 'completed', topic: 'Volcanoes' });
    expect(detail.subscription).toMatchObject({ planId: 'essentials_plan', comp: false, status: 'active' });
    expect(detail.sessions.length).toBeGreaterThan(0);
    expect((await get('/api/admin/users/no-such-user', admin.token)).statusCode).toBe(404);
  });

  it('refuses to let an admin suspend or demote themselves', async () => {
    const suspend = await post(`/api/admin/users/${admin.id}/suspend`, admin.token, { reason: 'testing myself' });
    expect(suspend.statusCode).toBe(400);
    expect(suspend.json().message).toBe(ADMIN_USER_MESSAGES.cannotSuspendSelf);
    const demote = await post(`/api/admin/users/${admin.id}/role`, admin.token, { role: 'user', reason: 'testing myself' });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().message).toBe(ADMIN_USER_MESSAGES.cannotDemoteSelf);
    const noReason = await post(`/api/admin/users/${user.id}/suspend`, admin.token, { reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect((await get(`/api/admin/users/${admin.id}`, admin.token)).json().user.status).toBe('active');
  });

  it('suspension ends a live socket, sessions and API key use at once, refuses sign-in, and reactivation restores access', async () => {
    const socket = connectSocket(baseUrl, {
      path: '/socket.io/',
      transports: ['websocket'],
      auth: { token: user.token },
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    let disconnectReason: string | null = null;
    socket.on('disconnect', (reason) => (disconnectReason = reason));
    expect((await app.inject({ method: 'GET', url: '/api/videos', headers: { [API_KEY_HEADER]: user.apiKey } })).statusCode).toBe(200);

    const suspended = await post(`/api/admin/users/${user.id}/suspend`, admin.token, { reason: 'Chargeback fraud' });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(adminActionResponseSchema.parse(suspended.json()).user.status).toBe('suspended');

    await waitFor(async () => disconnectReason === 'io server disconnect', 'the socket to be closed by the server', 5000);
    // The ended session says why, so the studio can tell the creator (an expired one says it expired).
    const profile = await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(user) });
    expect(profile.statusCode).toBe(401);
    expect(profile.json().message).toBe(ADMIN_USER_MESSAGES.accountSuspended);
    expect((await app.inject({ method: 'GET', url: '/api/videos', headers: { [API_KEY_HEADER]: user.apiKey } })).statusCode).toBe(401);
    const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: PASSWORD } });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe(ADMIN_USER_MESSAGES.accountSuspended);
    const again = new Promise<string>((resolve) => {
      const retry = connectSocket(baseUrl, {
        path: '/socket.io/',
        transports: ['websocket'],
        auth: { apiKey: user.apiKey },
        reconnection: false,
      });
      sockets.push(retry);
      retry.once('connect', () => resolve('connected'));
      retry.once('connect_error', (error) => resolve(error.message));
    });
    expect(await again).not.toBe('connected');
    expect((await post(`/api/admin/users/${user.id}/suspend`, admin.token, { reason: 'twice' })).statusCode).toBe(409);

    const detail = adminUserDetailResponseSchema.parse((await get(`/api/admin/users/${user.id}`, admin.token)).json());
    expect(detail.user).toMatchObject({ status: 'suspended', suspensionReason: 'Chargeback fraud' });
    expect(detail.sessions.every((session) => !session.active)).toBe(true);
    expect(
      adminUsersResponseSchema.parse((await get('/api/admin/users?status=suspended', admin.token)).json()).users.map((entry) => entry.id),
    ).toEqual([user.id]);

    const reactivated = await post(`/api/admin/users/${user.id}/reactivate`, admin.token, { reason: 'Bank resolved the dispute' });
    expect(reactivated.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/videos', headers: { [API_KEY_HEADER]: user.apiKey } })).statusCode).toBe(200);
    // The sessions the suspension ended stay ended, now merely expired.
    const stale = await app.inject({ method: 'GET', url: '/auth/profile', headers: bearer(user) });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe(MESSAGES.sessionExpired);
    const relogin = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: PASSWORD } });
    expect(relogin.statusCode).toBe(200);
    user = { ...user, token: relogin.json().token as string };
  });

  it('changes a role (kept at the next sign-in), grants a comp plan, resets usage and deletes a video, each in the audit log', async () => {
    const promoted = await post(`/api/admin/users/${user.id}/role`, admin.token, { role: 'admin', reason: 'Joins the support team' });
    expect(promoted.statusCode).toBe(200);
    const relogin = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: PASSWORD } });
    expect(relogin.json().user.role).toBe('admin');
    expect((await get('/api/admin/users', relogin.json().token as string)).statusCode).toBe(200);
    expect(
      (await post(`/api/admin/users/${user.id}/role`, admin.token, { role: 'user', reason: 'Left the support team' })).statusCode,
    ).toBe(200);
    expect((await get('/api/admin/users', relogin.json().token as string)).statusCode).toBe(403);

    const granted = await post(`/api/admin/users/${user.id}/grant-plan`, admin.token, {
      planId: 'pro_plan',
      days: 14,
      reason: 'Creator partnership',
    });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(adminActionResponseSchema.parse(granted.json()).user).toMatchObject({ plan: 'pro_plan', planComp: true });
    const subscription = await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(user) });
    expect(JSON.stringify(subscription.json())).toContain('pro_plan');
    expect(
      (await post(`/api/admin/users/${user.id}/grant-plan`, admin.token, { planId: 'pro_plan', days: 0, reason: 'zero days' })).statusCode,
    ).toBe(400);

    // The comp plan starts now: its month has used nothing yet, in the admin's list as in the creator's quota.
    expect(
      adminUsersResponseSchema.parse((await get(`/api/admin/users?search=${user.id}`, admin.token)).json()).users[0]!.videosThisMonth,
    ).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(user) })).json().usage.videosThisMonth).toBe(
      0,
    );
    const reset = await post(`/api/admin/users/${user.id}/reset-usage`, admin.token, { reason: 'Render bug ate their videos' });
    expect(reset.statusCode).toBe(200);
    const usage = await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(user) });
    expect(usage.json().usage.videosThisMonth).toBe(0);

    const detail = adminUserDetailResponseSchema.parse((await get(`/api/admin/users/${user.id}`, admin.token)).json());
    const video = detail.videos[0]!;
    const deleted = await post(`/api/admin/users/${user.id}/videos/${video.id}/delete`, admin.token, { reason: 'Copyright claim' });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await app.inject({ method: 'GET', url: video.videoUrl! })).statusCode).toBe(404);
    expect(
      (await post(`/api/admin/users/${user.id}/videos/${video.id}/delete`, admin.token, { reason: 'Copyright claim' })).statusCode,
    ).toBe(404);

    const log = auditLogResponseSchema.parse((await get('/api/admin/audit-log', admin.token)).json());
    expect(log.entries.map((entry) => entry.action)).toEqual([
      'delete-video',
      'reset-usage',
      'grant-plan',
      'role',
      'role',
      'reactivate',
      'suspend',
    ]);
    expect(log.entries.every((entry) => entry.adminEmail === ADMIN_EMAIL && entry.targetEmail === user.email)).toBe(true);
    expect(log.entries.find((entry) => entry.action === 'suspend')!.reason).toBe('Chargeback fraud');
    expect(log.entries.find((entry) => entry.action === 'grant-plan')!.details).toContain('comp for 14 days');
    const forUser = auditLogResponseSchema.parse((await get(`/api/admin/audit-log?userId=${admin.id}`, admin.token)).json());
    expect(forUser.total).toBe(0);
  });

  it('reports System Health with real figures', async () => {
    const health = systemHealthResponseSchema.parse((await get('/api/admin/system-health', admin.token)).json());
    expect(health.database).toMatchObject({ kind: dialect, status: 'healthy' });
    expect(health.database.migrations.applied).toBe(health.database.migrations.known);
    expect(health.database.migrations.latest).toBe(Object.keys(MIGRATIONS).at(-1));
    expect(health.queue).toMatchObject({ backend: 'embedded', waiting: 0, active: 0, oldestWaitingSeconds: null });
    expect(health.workers.workers).toHaveLength(1);
    expect(health.ffmpeg.version).toMatch(/\d/);
    expect(health.ffmpeg.path).toBeTruthy();
    expect(health.disk.freeBytes).toBeGreaterThan(0);
    expect(health.disk.path).toBe(database.dataDir);
    expect(health.storage).toMatchObject({ kind: 'local', reachable: true, bucket: null, status: 'healthy' });
    expect(health.database.history.length).toBeGreaterThanOrEqual(1);
  });

  it("counts the month's videos as the creator's quota does: a deleted video still counts, a failed one does not", async () => {
    const creator = await registerUser(app, 'counted-creator');
    await subscribe(app, creator.id, 'pro_plan');
    const made: string[] = [];
    for (const topic of ['Counted kept', 'Counted deleted']) {
      const response = await post('/api/videos/generate', creator.token, videoBody(topic));
      expect(response.statusCode, response.body).toBe(200);
      made.push(response.json().jobId as string);
      await waitForStatus(app, creator, made.at(-1)!, 'completed');
    }
    pipeline.failWith('Counted failed', new Error('The voice service refused the text'));
    const failed = (await post('/api/videos/generate', creator.token, videoBody('Counted failed'))).json().jobId as string;
    await waitForStatus(app, creator, failed, 'failed');
    const removed = await app.inject({ method: 'DELETE', url: `/api/videos/${made[1]!}`, headers: bearer(creator) });
    expect(removed.statusCode, removed.body).toBe(200);

    const quota = (await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(creator) })).json().usage
      .videosThisMonth as number;
    const usage = (await app.inject({ method: 'GET', url: '/auth/usage', headers: bearer(creator) })).json().videosThisMonth as number;
    const listed = adminUsersResponseSchema.parse((await get(`/api/admin/users?search=${creator.id}`, admin.token)).json()).users[0]!;
    const detail = adminUserDetailResponseSchema.parse((await get(`/api/admin/users/${creator.id}`, admin.token)).json());
    expect({ quota, usage, listed: listed.videosThisMonth, detail: detail.user.videosThisMonth }).toEqual({
      quota: 2,
      usage: 2,
      listed: 2,
      detail: 2,
    });
  });

  it("cancels the user's running and queued jobs on suspension, counts none of them, and says so in the audit log", async () => {
    const creator = await registerUser(app, 'busy-creator');
    await subscribe(app, creator.id, 'pro_plan');
    const gate = pipeline.blockAt('Suspended running', 'voice');
    const jobIds: string[] = [];
    for (const topic of ['Suspended running', 'Suspended queued one', 'Suspended queued two']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/videos/generate',
        headers: bearer(creator),
        payload: videoBody(topic),
      });
      expect(response.statusCode, response.body).toBe(200);
      jobIds.push(response.json().jobId as string);
    }
    await gate.reached;
    const usedBefore = (await app.inject({ method: 'GET', url: '/payments/subscription', headers: bearer(creator) })).json().usage
      .videosThisMonth as number;
    expect(usedBefore).toBe(3);

    const suspended = await post(`/api/admin/users/${creator.id}/suspend`, admin.token, { reason: 'Spam videos' });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const statuses = async () =>
      (await app.db.selectFrom('video_jobs').select(['id', 'status']).where('user_id', '=', creator.id).execute()).map((row) => row.status);
    expect(await statuses()).toEqual(['cancelled', 'cancelled', 'cancelled']);
    const running = pipeline.runsOf('Suspended running')[0]!;
    await waitFor(async () => running.signal.aborted, 'the running job to be stopped', 5_000);
    gate.release();
    // Nothing runs afterwards: the queued ones never start, the running one never completes.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pipeline.runsOf('Suspended queued one')).toHaveLength(0);
    expect(pipeline.runsOf('Suspended queued two')).toHaveLength(0);
    expect(await statuses()).toEqual(['cancelled', 'cancelled', 'cancelled']);

    const log = auditLogResponseSchema.parse((await get(`/api/admin/audit-log?userId=${creator.id}`, admin.token)).json());
    expect(log.entries[0]).toMatchObject({ action: 'suspend', reason: 'Spam videos' });
    expect(log.entries[0]!.details).toContain('3 video jobs cancelled (1 running, 2 queued), not counted against the plan');

    await post(`/api/admin/users/${creator.id}/reactivate`, admin.token, { reason: 'Appeal accepted' });
    const token = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: creator.email, password: PASSWORD } })).json()
      .token as string;
    const usage = (await app.inject({ method: 'GET', url: '/payments/subscription', headers: { authorization: `Bearer ${token}` } })).json()
      .usage;
    expect(usage.videosThisMonth).toBe(0);
  });
});
