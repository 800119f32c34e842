import {
  ADMIN_USER_MESSAGES,
  ADMIN_USERS_PAGE_SIZE,
  AUDIT_LOG_PAGE_SIZE,
  type AdminUser,
  type AdminUserDetail,
  type AuditAction,
  type AuditEntry,
  type PlanId,
  type Role,
} from '@reelsmith/contracts';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { parseParams, parseResult } from '../video-jobs/video-job-view.js';
import { getPlan } from '../payments/plans.js';
import { effectiveStatus, usagePeriodStartOf, videosUsedQuery } from '../payments/subscription-state.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface AdminActor {
  id: string;
  email: string;
}

export interface UserListFilter {
  search?: string | undefined;
  role?: Role | undefined;
  plan?: PlanId | 'free' | undefined;
  status?: 'active' | 'suspended' | undefined;
  page: number;
  sort: string;
}

const SORT_COLUMNS: Record<string, string> = {
  createdAt: 'users.created_at',
  name: 'users.name',
  email: 'users.email',
  lastSignInAt: 'users.last_sign_in_at',
  totalVideos: 'total_videos',
  videosThisMonth: 'videos_this_month',
};

/** `%`, `_` and `\` typed in the search box are literal characters, not wildcards. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The users table as User Management reads it: one query with the plan and video counts per row. */
function usersQuery(db: Db, filter: Omit<UserListFilter, 'page' | 'sort'>, now: Date) {
  const nowText = now.toISOString();
  let query = db
    .selectFrom('users')
    .leftJoin('subscriptions', (join) => join.onRef('subscriptions.user_id', '=', 'users.id').on('subscriptions.end_date', '>', nowText));
  if (filter.search) {
    const pattern = likePattern(filter.search);
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`lower(users.name) like ${pattern} escape '\\'`,
        sql<boolean>`users.email like ${pattern} escape '\\'`,
        eb('users.id', '=', filter.search!),
      ]),
    );
  }
  if (filter.role) query = query.where('users.role', '=', filter.role);
  if (filter.status) query = query.where('users.status', '=', filter.status);
  if (filter.plan === 'free') query = query.where('subscriptions.id', 'is', null);
  else if (filter.plan) query = query.where('subscriptions.plan_id', '=', filter.plan);
  return query;
}

function selectUserRows(db: Db, filter: Omit<UserListFilter, 'page' | 'sort'>, now: Date) {
  const userId = sql.ref<string>('users.id');
  return usersQuery(db, filter, now)
    .selectAll('users')
    .select(['subscriptions.plan_id as plan_id', 'subscriptions.granted_by as granted_by'])
    .select((eb) => [
      eb
        .selectFrom('video_jobs')
        .select(eb.fn.countAll<number | string | bigint>().as('c'))
        .whereRef('video_jobs.user_id', '=', 'users.id')
        .as('total_videos'),
      // Exactly what the creator's quota counts (deleted videos included), over the same period.
      videosUsedQuery(db, userId, usagePeriodStartOf(db, userId, now)).as('videos_this_month'),
    ]);
}

type ListedRow = UserRow & { plan_id: PlanId | null; granted_by: string | null; total_videos: unknown; videos_this_month: unknown };

function toAdminUser(row: ListedRow): AdminUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    plan: row.plan_id ?? 'free',
    planComp: row.plan_id !== null && row.granted_by !== null,
    videosThisMonth: Number(row.videos_this_month ?? 0),
    totalVideos: Number(row.total_videos ?? 0),
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

export async function listUsers(db: Db, filter: UserListFilter, now = new Date()): Promise<{ users: AdminUser[]; total: number }> {
  const descending = filter.sort.startsWith('-');
  const column = SORT_COLUMNS[filter.sort.replace(/^-/, '')] ?? 'users.created_at';
  const rows = (await selectUserRows(db, filter, now)
    .orderBy(sql.ref(column), descending ? 'desc' : 'asc')
    .orderBy('users.id', 'asc')
    .limit(ADMIN_USERS_PAGE_SIZE)
    .offset((filter.page - 1) * ADMIN_USERS_PAGE_SIZE)
    .execute()) as ListedRow[];
  const counted = await usersQuery(db, filter, now)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow();
  return { users: rows.map(toAdminUser), total: Number(counted.count) };
}

export async function findAdminUser(db: Db, userId: string, now = new Date()): Promise<AdminUser> {
  const row = (await selectUserRows(db, {}, now).where('users.id', '=', userId).executeTakeFirst()) as ListedRow | undefined;
  if (!row) throw notFound(ADMIN_USER_MESSAGES.userNotFound);
  return toAdminUser(row);
}

async function userRow(db: Db, userId: string): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound(ADMIN_USER_MESSAGES.userNotFound);
  return row;
}

export async function userDetail(db: Kysely<Database>, userId: string, now = new Date()): Promise<AdminUserDetail> {
  const row = await userRow(db, userId);
  const [listed, subscription, payments, videos, sessions, keys] = await Promise.all([
    findAdminUser(db, userId, now),
    db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('payment_orders').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(50).execute(),
    db.selectFrom('video_jobs').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(100).execute(),
    db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(50).execute(),
    db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  const nowText = now.toISOString();
  return {
    user: {
      ...listed,
      suspendedAt: row.suspended_at,
      suspensionReason: row.suspension_reason,
      usageResetAt: row.usage_reset_at,
      hasPassword: row.password_hash !== null,
      apiKeys: Number(keys.count),
    },
    subscription: subscription
      ? {
          planId: subscription.plan_id,
          status: effectiveStatus(subscription, now),
          comp: subscription.granted_by !== null,
          startDate: subscription.start_date,
          endDate: subscription.end_date,
          currency: subscription.currency,
        }
      : null,
    payments: payments.map((order) => ({
      id: order.id,
      planId: order.plan_id,
      amount: Number(order.amount),
      currency: order.currency,
      status: order.status,
      provider: order.provider,
      createdAt: order.created_at,
      paidAt: order.paid_at,
    })),
    videos: videos.map((job) => {
      const result = parseResult(job.result);
      let topic = '';
      try {
        topic = parseParams(job.params).topic;
      } catch {
        topic = '(unreadable parameters)';
      }
      return {
        id: job.id,
        status: job.status,
        topic,
        title: result?.title ?? null,
        videoUrl: result?.videoUrl ?? null,
        posterUrl: result?.posterUrl ?? null,
        createdAt: job.created_at,
        sizeBytes: job.size_bytes === null ? null : Number(job.size_bytes),
      };
    }),
    sessions: sessions.map((session) => ({
      id: session.id,
      createdAt: session.created_at,
      expiresAt: session.expires_at,
      revokedAt: session.revoked_at,
      userAgent: session.user_agent,
      active: session.revoked_at === null && session.expires_at > nowText && row.status === 'active',
    })),
  };
}

async function writeAudit(db: Db, actor: AdminActor, target: UserRow, action: AuditAction, reason: string, details: string): Promise<void> {
  await db
    .insertInto('admin_audit_log')
    .values({
      id: randomUUID(),
      action,
      admin_id: actor.id,
      admin_email: actor.email,
      target_user_id: target.id,
      target_email: target.email,
      reason,
      details,
      created_at: new Date().toISOString(),
    })
    .execute();
}

/** One admin action: the change and its audit entry commit together, or neither does. */
async function act(
  db: Kysely<Database>,
  userId: string,
  change: (
    trx: Transaction<Database>,
    target: UserRow,
  ) => Promise<{ action: AuditAction; details: string; reason: string; actor: AdminActor }>,
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const target = await userRow(trx, userId);
    const { action, details, reason, actor } = await change(trx, target);
    await writeAudit(trx, actor, target, action, reason, details);
    return target;
  });
}

/**
 * Suspends the account: every session ends and every queued or running job is cancelled (not
 * counted against the plan), all in the transaction that writes the audit entry saying so.
 * `cancelJobs` is the job lifecycle's (JobLifecycle.suspend), which stops the runs once committed.
 */
export async function suspendUser(
  db: Kysely<Database>,
  actor: AdminActor,
  userId: string,
  reason: string,
  cancelJobs: (trx: Transaction<Database>) => Promise<ReadonlyArray<{ status: string }>>,
): Promise<UserRow> {
  if (actor.id === userId) throw badRequest(ADMIN_USER_MESSAGES.cannotSuspendSelf);
  return act(db, userId, async (trx, target) => {
    if (target.status === 'suspended') throw conflict(ADMIN_USER_MESSAGES.alreadySuspended);
    const now = new Date().toISOString();
    await trx
      .updateTable('users')
      .set({ status: 'suspended', suspended_at: now, suspension_reason: reason, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    const cancelledJobs = await cancelJobs(trx);
    return { action: 'suspend', details: `Account suspended; every session ended; ${describeCancelled(cancelledJobs)}`, reason, actor };
  });
}

function describeCancelled(jobs: ReadonlyArray<{ status: string }>): string {
  if (jobs.length === 0) return 'no video jobs to cancel';
  const queued = jobs.filter((job) => job.status === 'queued' || job.status === 'pending').length;
  const running = jobs.length - queued;
  return `${jobs.length} video job${jobs.length === 1 ? '' : 's'} cancelled (${running} running, ${queued} queued), not counted against the plan`;
}

export async function reactivateUser(db: Kysely<Database>, actor: AdminActor, userId: string, reason: string): Promise<UserRow> {
  return act(db, userId, async (trx, target) => {
    if (target.status !== 'suspended') throw conflict(ADMIN_USER_MESSAGES.notSuspended);
    await trx
      .updateTable('users')
      .set({ status: 'active', suspended_at: null, suspension_reason: null, updated_at: new Date().toISOString() })
      .where('id', '=', userId)
      .execute();
    return { action: 'reactivate', details: 'Account reactivated', reason, actor };
  });
}

export async function changeRole(db: Kysely<Database>, actor: AdminActor, userId: string, role: Role, reason: string): Promise<UserRow> {
  if (actor.id === userId && role !== 'admin') throw badRequest(ADMIN_USER_MESSAGES.cannotDemoteSelf);
  return act(db, userId, async (trx, target) => {
    if (target.role === role) throw conflict(ADMIN_USER_MESSAGES.sameRole);
    const now = new Date().toISOString();
    await trx.updateTable('users').set({ role, role_set_by_admin_at: now, updated_at: now }).where('id', '=', userId).execute();
    return { action: 'role', details: `${target.role} → ${role}`, reason, actor };
  });
}

export const DAY_MS = 86_400_000;

export async function grantPlan(
  db: Kysely<Database>,
  actor: AdminActor,
  userId: string,
  planId: PlanId,
  days: number,
  reason: string,
): Promise<UserRow> {
  return act(db, userId, async (trx, target) => {
    const now = new Date();
    const start = now.toISOString();
    const end = new Date(now.getTime() + days * DAY_MS).toISOString();
    const existing = await trx
      .selectFrom('subscriptions')
      .select(['id', 'plan_id', 'end_date'])
      .where('user_id', '=', target.id)
      .executeTakeFirst();
    const values = {
      plan_id: planId,
      status: 'active' as const,
      start_date: start,
      end_date: end,
      cancelled_at: null,
      cancellation_reason: null,
      last_order_id: null,
      granted_by: actor.id,
      updated_at: start,
    };
    if (existing) await trx.updateTable('subscriptions').set(values).where('id', '=', existing.id).execute();
    else
      await trx
        .insertInto('subscriptions')
        .values({ id: randomUUID(), user_id: target.id, currency: 'USD', created_at: start, ...values })
        .execute();
    const replaced = existing && existing.end_date > start ? ` (replaces ${existing.plan_id} until ${existing.end_date.slice(0, 10)})` : '';
    return {
      action: 'grant-plan',
      details: `${getPlan(planId).name} plan as a comp for ${days} day${days === 1 ? '' : 's'}, until ${end.slice(0, 10)}${replaced}`,
      reason,
      actor,
    };
  });
}

export async function resetUsage(db: Kysely<Database>, actor: AdminActor, userId: string, reason: string): Promise<UserRow> {
  return act(db, userId, async (trx) => {
    const now = new Date().toISOString();
    await trx.updateTable('users').set({ usage_reset_at: now, updated_at: now }).where('id', '=', userId).execute();
    return { action: 'reset-usage', details: "This month's plan usage starts again from 0", reason, actor };
  });
}

export async function recordVideoDeleted(
  db: Kysely<Database>,
  actor: AdminActor,
  target: UserRow,
  jobId: string,
  outcome: string,
  reason: string,
): Promise<void> {
  await writeAudit(db, actor, target, 'delete-video', reason, `Video ${jobId} ${outcome}`);
}

export { userRow as findUserRow };

export async function auditLog(db: Kysely<Database>, page: number, userId?: string): Promise<{ entries: AuditEntry[]; total: number }> {
  let query = db.selectFrom('admin_audit_log');
  if (userId) query = query.where('target_user_id', '=', userId);
  const [rows, counted] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(AUDIT_LOG_PAGE_SIZE)
      .offset((page - 1) * AUDIT_LOG_PAGE_SIZE)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string | bigint>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return {
    entries: rows.map((row) => ({
      id: row.id,
      action: row.action,
      adminId: row.admin_id,
      adminEmail: row.admin_email,
      targetUserId: row.target_user_id,
      targetEmail: row.target_email,
      reason: row.reason,
      details: row.details,
      createdAt: row.created_at,
    })),
    total: Number(counted.count),
  };
}
