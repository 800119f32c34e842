import { z } from './zod.js';
import { providerHealthSchema } from './admin.js';
import { currencySchema, jobStatusSchema, planIdSchema, roleSchema } from './enums.js';
import { MESSAGES } from './messages.js';

/** Admin User Management (/admin/users), the audit log (/admin/audit) and System Health (/admin/health). */

export const USER_STATUSES = ['active', 'suspended'] as const;
export const userStatusSchema = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof userStatusSchema>;

/** A user without a plan that grants access is on the free tier. */
export const adminPlanFilterSchema = z.union([planIdSchema, z.literal('free')]);

export const ADMIN_USER_SORTS = ['createdAt', 'name', 'email', 'lastSignInAt', 'totalVideos', 'videosThisMonth'] as const;
export const adminUserSortSchema = z.enum([...ADMIN_USER_SORTS, ...ADMIN_USER_SORTS.map((sort) => `-${sort}` as const)] as [
  string,
  ...string[],
]);
export const ADMIN_USERS_PAGE_SIZE = 20;

/**
 * A query field left empty in a form reads as absent: zod's classic `preprocess`, spelled as the pipe
 * it is. Typed as the field's own schema: callers send what the field takes, and '' is only forgiven.
 */
const blankAsMissing = <T extends z.ZodMiniType>(schema: T): T =>
  z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    schema,
  ) as unknown as T;

export const adminUsersQuerySchema = z.object({
  search: blankAsMissing(z.optional(z.string().check(z.trim(), z.maxLength(200)))),
  role: blankAsMissing(z.optional(roleSchema)),
  plan: blankAsMissing(z.optional(adminPlanFilterSchema)),
  status: blankAsMissing(z.optional(userStatusSchema)),
  page: blankAsMissing(z._default(z.coerce.number().check(z.int(), z.gte(1, 'page must be 1 or more'), z.lte(10_000)), 1)),
  sort: blankAsMissing(z._default(adminUserSortSchema, '-createdAt')),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  status: userStatusSchema,
  /** The plan that grants access now, or 'free'. */
  plan: adminPlanFilterSchema,
  /** True when the plan was granted by an admin (a comp), not paid for. */
  planComp: z.boolean(),
  videosThisMonth: z.number().check(z.int()),
  totalVideos: z.number().check(z.int()),
  createdAt: z.string(),
  lastSignInAt: z.nullable(z.string()),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserSchema),
  total: z.number().check(z.int()),
  page: z.number().check(z.int()),
  pageSize: z.number().check(z.int()),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const adminUserParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const adminUserVideoParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  videoId: z.string().check(z.minLength(1), z.maxLength(64)),
});

export const adminUserDetailResponseSchema = z.object({
  user: z.extend(adminUserSchema, {
    suspendedAt: z.nullable(z.string()),
    suspensionReason: z.nullable(z.string()),
    usageResetAt: z.nullable(z.string()),
    hasPassword: z.boolean(),
    apiKeys: z.number().check(z.int()),
  }),
  subscription: z.nullable(
    z.object({
      planId: planIdSchema,
      status: z.enum(['active', 'cancelled', 'expired']),
      comp: z.boolean(),
      startDate: z.string(),
      endDate: z.string(),
      currency: currencySchema,
    }),
  ),
  payments: z.array(
    z.object({
      id: z.string(),
      planId: planIdSchema,
      amount: z.number().check(z.int()),
      currency: currencySchema,
      status: z.enum(['created', 'paid']),
      provider: z.enum(['razorpay', 'test']),
      createdAt: z.string(),
      paidAt: z.nullable(z.string()),
    }),
  ),
  videos: z.array(
    z.object({
      id: z.string(),
      status: jobStatusSchema,
      topic: z.string(),
      title: z.nullable(z.string()),
      videoUrl: z.nullable(z.string()),
      posterUrl: z.nullable(z.string()),
      createdAt: z.string(),
      sizeBytes: z.nullable(z.number().check(z.int())),
    }),
  ),
  sessions: z.array(
    z.object({
      id: z.string(),
      createdAt: z.string(),
      expiresAt: z.string(),
      revokedAt: z.nullable(z.string()),
      userAgent: z.nullable(z.string()),
      active: z.boolean(),
    }),
  ),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailResponseSchema>;

const reasonSchema = z
  .string({ message: 'Give a reason for this action' })
  .check(
    z.trim(),
    z.minLength(3, 'Give a reason for this action (at least 3 characters)'),
    z.maxLength(500, 'Keep the reason under 500 characters'),
  );

export const adminReasonBodySchema = z.object({ reason: reasonSchema });
export const adminRoleBodySchema = z.object({ role: roleSchema, reason: reasonSchema });
export const ADMIN_GRANT_MAX_DAYS = 3650;
export const adminGrantPlanBodySchema = z.object({
  planId: planIdSchema,
  days: z.coerce
    .number({ message: 'days must be a number' })
    .check(
      z.int('days must be a whole number'),
      z.gte(1, 'days must be 1 or more'),
      z.lte(ADMIN_GRANT_MAX_DAYS, `days must be at most ${ADMIN_GRANT_MAX_DAYS}`),
    ),
  reason: reasonSchema,
});

export const adminActionResponseSchema = z.object({ message: z.string(), user: adminUserSchema });

export const AUDIT_ACTIONS = ['suspend', 'reactivate', 'role', 'grant-plan', 'reset-usage', 'delete-video'] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditLogQuerySchema = z.object({
  page: blankAsMissing(z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1)),
  userId: blankAsMissing(z.optional(z.string().check(z.maxLength(64)))),
});
export const AUDIT_LOG_PAGE_SIZE = 50;

export const auditEntrySchema = z.object({
  id: z.string(),
  action: auditActionSchema,
  adminId: z.string(),
  adminEmail: z.string(),
  targetUserId: z.string(),
  targetEmail: z.string(),
  reason: z.string(),
  /** What changed, e.g. "user → admin" or "pro_plan for 30 days". */
  details: z.string(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogResponseSchema = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number().check(z.int()),
  page: z.number().check(z.int()),
  pageSize: z.number().check(z.int()),
});

// System health

export const HEALTH_STATUSES = ['healthy', 'degraded', 'down'] as const;
export const healthStatusSchema = z.enum(HEALTH_STATUSES);
export type HealthStatus = z.infer<typeof healthStatusSchema>;

/** One sample of a component's last hour: its status and the figure the small chart draws. */
export const healthSampleSchema = z.object({ at: z.string(), status: healthStatusSchema, value: z.number() });
export type HealthSample = z.infer<typeof healthSampleSchema>;

const component = <T extends z.core.$ZodShape>(shape: T) =>
  z.object({ status: healthStatusSchema, summary: z.string(), history: z.array(healthSampleSchema), ...shape });

export const workerHeartbeatSchema = z.object({
  id: z.string(),
  host: z.string(),
  jobsRunning: z.number().check(z.int()),
  lastHeartbeatAt: z.string(),
});
export type WorkerHeartbeat = z.infer<typeof workerHeartbeatSchema>;

/** How many of the jobs stopped after crashing System Health lists. */
export const CRASHED_JOBS_SHOWN = 10;

export const systemHealthResponseSchema = z.object({
  status: healthStatusSchema,
  checkedAt: z.string(),
  /** What each chart's value is, e.g. "latency ms". */
  database: component({
    kind: z.enum(['sqlite', 'postgres']),
    latencyMs: z.number(),
    migrations: z.object({ applied: z.number().check(z.int()), known: z.number().check(z.int()), latest: z.nullable(z.string()) }),
  }),
  queue: component({
    backend: z.enum(['embedded', 'bullmq']),
    waiting: z.number().check(z.int()),
    active: z.number().check(z.int()),
    oldestWaitingSeconds: z.nullable(z.number()),
    failedLastHour: z.number().check(z.int()),
    /**
     * Jobs of the last 24 h that were failed, not resumed, because their runs ended the process (or
     * their worker) twice: newest first, at most CRASHED_JOBS_SHOWN. Their source may crash it again.
     */
    crashedJobs: z.array(z.object({ id: z.string(), userEmail: z.string(), step: z.nullable(z.string()), failedAt: z.string() })),
  }),
  workers: component({ mode: z.enum(['embedded', 'bullmq']), workers: z.array(workerHeartbeatSchema) }),
  ffmpeg: component({ path: z.nullable(z.string()), version: z.nullable(z.string()), source: z.nullable(z.string()) }),
  disk: component({ path: z.string(), freeBytes: z.number(), totalBytes: z.number() }),
  storage: component({ kind: z.enum(['local', 's3']), reachable: z.boolean(), bucket: z.nullable(z.string()), latencyMs: z.number() }),
  providers: component({ providers: z.array(providerHealthSchema) }),
});
export type SystemHealth = z.infer<typeof systemHealthResponseSchema>;
/** The throughput charts' window and resolution (GET /api/admin/throughput). */
export const THROUGHPUT_WINDOW_HOURS = 24;
export const THROUGHPUT_BUCKET_MINUTES = 60;

/**
 * GET /api/admin/throughput: the last 24 h of the service, from the same figures /metrics reports:
 * jobs finished per hour by outcome and the queue's largest depth in each hour (from the jobs' own
 * times), the videos completed in the last 60 minutes (videosPerHour), and each step's median and 95th percentile (job_step_timings, written by the process that
 * ran the step). Percentiles are null for a step with no run in the window.
 */
export const throughputResponseSchema = z.object({
  since: z.string(),
  until: z.string(),
  bucketMinutes: z.number().check(z.int()),
  buckets: z.array(
    z.object({
      start: z.string(),
      completed: z.number().check(z.int()),
      failed: z.number().check(z.int()),
      queueDepth: z.number().check(z.int()),
    }),
  ),
  videosPerHour: z.number(),
  /** Failed / (completed + failed) over the window; null when nothing finished. */
  failureRate: z.nullable(z.number()),
  steps: z.array(
    z.object({
      step: z.string(),
      runs: z.number().check(z.int()),
      medianSeconds: z.nullable(z.number()),
      p95Seconds: z.nullable(z.number()),
    }),
  ),
});
export type Throughput = z.infer<typeof throughputResponseSchema>;

export const SYSTEM_HEALTH_COMPONENTS = ['database', 'queue', 'workers', 'ffmpeg', 'disk', 'storage', 'providers'] as const;
export type SystemHealthComponent = (typeof SYSTEM_HEALTH_COMPONENTS)[number];

export const ADMIN_USER_MESSAGES = {
  accountSuspended: MESSAGES.accountSuspended,
  cannotSuspendSelf: 'You cannot suspend your own account.',
  cannotDemoteSelf: 'You cannot remove your own admin role.',
  userNotFound: 'No user with that id',
  alreadySuspended: 'This account is already suspended.',
  notSuspended: 'This account is not suspended.',
  sameRole: 'The user already has that role.',
} as const;
