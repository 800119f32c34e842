import { ADMIN_USERS_PAGE_SIZE, API, AUDIT_LOG_PAGE_SIZE, MESSAGES } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { disconnectUserSockets, revokeUserSessions } from '../auth/revoke-user-sessions.js';
import { notFound } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { findUserJob } from '../video-jobs/video-job-repository.js';
import {
  auditLog,
  changeRole,
  findAdminUser,
  findUserRow,
  grantPlan,
  listUsers,
  reactivateUser,
  recordVideoDeleted,
  resetUsage,
  suspendUser,
  userDetail,
  type AdminActor,
} from './admin-users-service.js';
import { checkSystemHealth, HealthHistory } from './system-health.js';

/** Samples System Health in the background too, so the charts have an hour even when nobody watched. */
const HEALTH_SAMPLE_INTERVAL_MS = 60_000;

/**
 * Admin User Management (GET/POST /api/admin/users…), the audit log (GET /api/admin/audit-log) and
 * System Health (GET /api/admin/system-health). Every route is admin only (401 signed out, 403 for a
 * user). Each action takes a reason and is written to the audit log in the same transaction.
 */
/** What a suspended account's cancelled publications say. */
export const ACCOUNT_SUSPENDED_PUBLICATION_NOTE = 'Cancelled: the account was suspended.';

export const adminUsersPlugin = fp(
  async (app) => {
    const actor = (user: { id: string; email: string }): AdminActor => ({ id: user.id, email: user.email });
    const history = new HealthHistory();

    registerRoute(app, API.adminUsers, async (request) => {
      const { users, total } = await listUsers(app.db, request.query);
      return { users, total, page: request.query.page, pageSize: ADMIN_USERS_PAGE_SIZE };
    });

    registerRoute(app, API.adminUser, async (request) => userDetail(app.db, request.params.id));

    registerRoute(app, API.adminSuspendUser, async (request) => {
      // The account's jobs are cancelled in the suspension's transaction; once committed, their runs stop.
      const target = await app.jobLifecycle.suspend(request.params.id, (cancelJobs) =>
        suspendUser(app.db, actor(request.user), request.params.id, request.body.reason, cancelJobs),
      );
      await revokeUserSessions(app, target.id);
      // Nothing scheduled goes out for a suspended account, and the platforms' tokens are revoked.
      const publishing = await app.endAccountPublishing(target.id, ACCOUNT_SUSPENDED_PUBLICATION_NOTE);
      request.log.info({ userId: target.id, by: request.user.id, ...publishing }, 'user suspended');
      return { message: `${target.email} is suspended and signed out everywhere.`, user: await findAdminUser(app.db, target.id) };
    });

    registerRoute(app, API.adminReactivateUser, async (request) => {
      const target = await reactivateUser(app.db, actor(request.user), request.params.id, request.body.reason);
      request.log.info({ userId: target.id, by: request.user.id }, 'user reactivated');
      return { message: `${target.email} can sign in again.`, user: await findAdminUser(app.db, target.id) };
    });

    registerRoute(app, API.adminChangeRole, async (request) => {
      const target = await changeRole(app.db, actor(request.user), request.params.id, request.body.role, request.body.reason);
      // Open sockets were authenticated under the old role: they reconnect under the new one.
      await disconnectUserSockets(app, target.id);
      request.log.info({ userId: target.id, role: request.body.role, by: request.user.id }, 'user role changed');
      return {
        message: `${target.email} is now ${request.body.role === 'admin' ? 'an admin' : 'a user'}.`,
        user: await findAdminUser(app.db, target.id),
      };
    });

    registerRoute(app, API.adminGrantPlan, async (request) => {
      const { planId, days, reason } = request.body;
      const target = await grantPlan(app.db, actor(request.user), request.params.id, planId, days, reason);
      request.log.info({ userId: target.id, planId, days, by: request.user.id }, 'plan granted');
      return {
        message: `${target.email} has the plan for ${days} day${days === 1 ? '' : 's'} (comp).`,
        user: await findAdminUser(app.db, target.id),
      };
    });

    registerRoute(app, API.adminResetUsage, async (request) => {
      const target = await resetUsage(app.db, actor(request.user), request.params.id, request.body.reason);
      return { message: `${target.email}'s usage for this month starts again from 0.`, user: await findAdminUser(app.db, target.id) };
    });

    registerRoute(app, API.adminDeleteUserVideo, async (request) => {
      const target = await findUserRow(app.db, request.params.id);
      const job = await findUserJob(app.db, target.id, request.params.videoId);
      if (!job) throw notFound(MESSAGES.notFound);
      const outcome = await app.jobLifecycle.cancelOrDelete(target.id, job.id);
      if (!outcome) throw notFound(MESSAGES.notFound);
      await recordVideoDeleted(app.db, actor(request.user), target, job.id, outcome, request.body.reason);
      return { message: `Video ${outcome}.`, user: await findAdminUser(app.db, target.id) };
    });

    registerRoute(app, API.adminAuditLog, async (request) => {
      const { entries, total } = await auditLog(app.db, request.query.page, request.query.userId);
      return { entries, total, page: request.query.page, pageSize: AUDIT_LOG_PAGE_SIZE };
    });

    registerRoute(app, API.systemHealth, async () => checkSystemHealth(app, history));

    let sampler: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      sampler = setInterval(
        () => void checkSystemHealth(app, history).catch((error: unknown) => app.log.warn({ err: error }, 'system health sample failed')),
        HEALTH_SAMPLE_INTERVAL_MS,
      );
      sampler.unref();
    });
    app.addHook('preClose', async () => {
      if (sampler) clearInterval(sampler);
    });
  },
  {
    name: 'admin-users',
    fastify: '5.x',
    dependencies: ['auth', 'database', 'storage', 'health', 'jobs', 'realtime', 'session-revocation', 'publishing'],
  },
);
