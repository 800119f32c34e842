import type { Migration, MigrationProvider } from 'kysely';
import { usersSessionsApiKeys } from './0001-users-sessions-api-keys.js';
import { analyticsEvents } from './0002-analytics-events.js';
import { videoJobs } from './0003-video-jobs.js';
import { payments } from './0004-payments.js';
import { videoJobOutput } from './0005-video-job-output.js';
import { storyboards } from './0006-storyboards.js';

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
  '0006_storyboards': storyboards,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
