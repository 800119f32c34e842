import type { Migration, MigrationProvider } from 'kysely';
import { usersSessionsApiKeys } from './0001-users-sessions-api-keys.js';
import { analyticsEvents } from './0002-analytics-events.js';
import { videoJobs } from './0003-video-jobs.js';
import { payments } from './0004-payments.js';
import { videoJobOutput } from './0005-video-job-output.js';
import { developerApi } from './0006-developer-api.js';
import { adminUserManagement } from './0007-admin-user-management.js';
import { videoUsage } from './0008-video-usage.js';
import { accountSecurity } from './0009-account-security.js';
import { jobClaims } from './0010-job-claims.js';
import { storyboards } from './0011-storyboards.js';
import { jobStepTimings } from './0022-job-step-timings.js';
import { appSettings } from './0013-app-settings.js';
import { brandKits } from './0014-brand-kits.js';
import { webhookAttemptsAt } from './0016-webhook-attempts-at.js';
import { versionRenderStats } from './0017-version-render-stats.js';
import { jobUnfinishedRuns } from './0018-job-unfinished-runs.js';
import { videoBatches } from './0019-video-batches.js';
import { platformConnections } from './0020-platform-connections.js';
import { publications } from './0021-publications.js';
import { webhookOutboxOrder } from './0023-webhook-outbox-order.js';

/**
 * Every migration, in order. Add a new file per migration and append it here; names sort
 * alphabetically and are recorded in kysely_migration, so never rename or reorder existing ones.
 * Use the Kysely schema builder (or SQL valid in both SQLite and PostgreSQL): both dialects run these.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_users_sessions_api_keys': usersSessionsApiKeys,
  '0002_analytics_events': analyticsEvents,
  '0003_video_jobs': videoJobs,
  '0004_payments': payments,
  '0005_video_job_output': videoJobOutput,
  '0006_developer_api': developerApi,
  '0007_admin_user_management': adminUserManagement,
  // 0006 and 0007 are the developer-API and admin-user-management migrations of other branches:
  // these are numbered after them so that every database runs them in one order.
  '0008_video_usage': videoUsage,
  '0009_account_security': accountSecurity,
  '0010_job_claims': jobClaims,
  '0011_storyboards': storyboards,
  // 0012 is left to the stock-media branch of the same session, so both orders of merging agree.
  '0013_app_settings': appSettings,
  '0014_brand_kits': brandKits,
  '0016_webhook_attempts_at': webhookAttemptsAt,
  '0017_version_render_stats': versionRenderStats,
  '0018_job_unfinished_runs': jobUnfinishedRuns,
  '0019_video_batches': videoBatches,
  '0020_platform_connections': platformConnections,
  '0021_publications': publications,
  '0022_job_step_timings': jobStepTimings,
  '0023_webhook_outbox_order': webhookOutboxOrder,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
