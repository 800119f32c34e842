import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { AuditAction, Currency, JobStatus, PlanId, Role, UserStatus } from '@reelsmith/contracts';

/**
 * Timestamps are ISO-8601 UTC strings (`new Date().toISOString()`) in both dialects: they sort
 * correctly as text, need no driver-specific parsing, and keep migrations portable.
 */
export type Timestamp = string;

export interface UsersTable {
  id: string;
  /** Always lower-cased before it is stored; unique. */
  email: string;
  name: string;
  password_hash: string | null;
  google_sub: string | null;
  role: Role;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 'suspended' ends every session and API key use and refuses sign-in. */
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  suspended_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  suspension_reason: ColumnType<string | null, string | null | undefined, string | null>;
  last_sign_in_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** An admin reset the month's usage: the plan's count starts here (if later than the month's start). */
  usage_reset_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** When the address was proven (e-mailed link or Google); ADMIN_EMAILS applies only then. */
  email_verified_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Set when an operator (npm run admin) or an admin set the role by hand: it then outranks ADMIN_EMAILS. */
  role_set_by_admin_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  user_agent: string | null;
  /** 'full', or 'embed' for a short session minted with an API key for the embedded studio. */
  scope: ColumnType<SessionScope, SessionScope | undefined, SessionScope>;
  /** The API key that minted an embed session; revoking the key ends the session. */
  api_key_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** An embed session's partner brand (BrandKit JSON), given to the jobs made in it. */
  brand: ColumnType<string | null, string | null | undefined, string | null>;
}

export type SessionScope = 'full' | 'embed';

export interface ApiKeysTable {
  id: string;
  user_id: string;
  /** SHA-256 hex of the key, for lookup. */
  key_hash: string;
  /** The first characters of the key, to recognise it in lists and logs. */
  key_prefix: string;
  /**
   * The account's studio key under AES-256-GCM (see auth/api-keys.ts), so the studio can read it
   * back after sign-in; '' for keys made with POST /auth/api-keys, which exist only as a hash.
   */
  key_encrypted: string;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  /** The signing secret under AES-256-GCM: it must be read back to sign each delivery. */
  secret_encrypted: string;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  /** The event's id (one per job outcome); unique per webhook, so a second process cannot enqueue it twice. */
  event_id: string;
  type: string;
  /** The exact JSON body sent (and signed) on every attempt. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  /** A sender claims a delivery until then, so two processes never send it at once. */
  locked_until: Timestamp | null;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  at: Timestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface AnalyticsEventsTable {
  id: string;
  user_id: string | null;
  type: string;
  name: string | null;
  path: string | null;
  method: string | null;
  created_at: Timestamp;
  /** Keyed hash of the client address: counts distinct visitors without storing addresses. */
  ip_hash: string | null;
}

export interface VideoJobsTable {
  id: string;
  user_id: string;
  status: JobStatus;
  /** JSON text: the submitted generation parameters. */
  params: string;
  progress: ColumnType<number, number | undefined, number>;
  current_step: string | null;
  step_progress: ColumnType<number, number | undefined, number>;
  /** JSON text: status per pipeline step. */
  steps: string;
  /** JSON text, set on completion. */
  result: string | null;
  error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  /** The random directory under DATA_DIR/output holding the finished video and poster. */
  output_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** Bytes of the finished video and poster (bigint: PostgreSQL returns it as a string). */
  size_bytes: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** Scale mode: the BullMQ job token of the worker running the job, and until when its claim holds. */
  claim_token: ColumnType<string | null, string | null | undefined, string | null>;
  claim_expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** The version this job's current (or last) run makes: 1, then one more per storyboard render. */
  version: ColumnType<number, number | undefined, number>;
  /**
   * Runs claimed since the job last stopped cleanly (finished, failed, interrupted by a shutdown):
   * counted at the claim, before any step, so a run that crashed the process is counted too.
   */
  unfinished_runs: ColumnType<number, number | undefined, number>;
  /** The partner brand of the embed session the job was made in (BrandKit JSON); null otherwise. */
  brand: ColumnType<string | null, string | null | undefined, string | null>;
  /** The batch the job was made in (video_batches.id) and its row's position there; null for a single video. */
  batch_id: ColumnType<string | null, string | null | undefined, string | null>;
  batch_index: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A batch of videos made from one list (POST /api/batches); its jobs carry its id. */
export interface VideoBatchesTable {
  id: string;
  user_id: string;
  name: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
}

/** One rendered version of a video; v1 is the first render. */
export interface VideoVersionsTable {
  video_id: string;
  version: number;
  output_token: string;
  /** JSON text: the VideoResult of this version. */
  result: string;
  size_bytes: ColumnType<number | string, number | undefined, number>;
  created_at: Timestamp;
  /** JSON text: the contract's RenderStats of this version's render; NULL before they were recorded (migration 0017). */
  render_stats: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The editable storyboard of a video (JSON document, see storyboard/storyboard-document.ts). */
export interface VideoStoryboardsTable {
  video_id: string;
  user_id: string;
  document: string;
  updated_at: Timestamp;
}

/** A creator's uploaded picture or music, decoded and re-encoded before it is stored. */
export interface UploadsTable {
  id: string;
  user_id: string;
  kind: 'image' | 'audio';
  /** The stored file's name inside the user's upload folder. */
  file_name: string;
  /** SHA-256 of the stored (re-encoded) file: pictures are cached by it. */
  content_hash: string;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  size_bytes: ColumnType<number | string, number, number>;
  created_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  analytics_events: AnalyticsEventsTable;
  video_jobs: VideoJobsTable;
  video_batches: VideoBatchesTable;
  subscriptions: SubscriptionsTable;
  payment_orders: PaymentOrdersTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  admin_audit_log: AdminAuditLogTable;
  video_usage: VideoUsageTable;
  email_tokens: EmailTokensTable;
  video_versions: VideoVersionsTable;
  video_storyboards: VideoStoryboardsTable;
  uploads: UploadsTable;
  app_settings: AppSettingsTable;
  brand_kits: BrandKitsTable;
  job_step_timings: JobStepTimingsTable;
  platform_connections: PlatformConnectionsTable;
  platform_oauth_states: PlatformOauthStatesTable;
  publications: PublicationsTable;
}

/** One pipeline step of one job run (migration 0022): what the admin's throughput charts read. */
export interface JobStepTimingsTable {
  id: string;
  job_id: string;
  step: string;
  seconds: number;
  finished_at: Timestamp;
}

/** One brand kit per account (migration 0014): the contract's BrandKit as JSON. */
export interface BrandKitsTable {
  user_id: string;
  settings: string;
  updated_at: Timestamp;
}

/** Admin choices shared by every process (migration 0013): one row per key, the value as JSON. */
export interface AppSettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

/** Single-use links sent by e-mail; only the SHA-256 of the token is stored. */
export interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  /** The address the link was sent to: for verify_email, the address it proves (a new one on an e-mail change). */
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** One row per video made (see migration 0008_video_usage): the quota's source of truth, kept when the job is deleted. */
export interface VideoUsageTable {
  job_id: string;
  user_id: string;
  created_at: Timestamp;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type VideoJobRow = Selectable<VideoJobsTable>;
export type NewVideoJob = Insertable<VideoJobsTable>;
export type VideoBatchRow = Selectable<VideoBatchesTable>;

/**
 * One row per user: the plan they hold now. `status` is only 'active' or 'cancelled' here;
 * 'expired' is derived on every read from end_date, so no scheduled job is needed for correctness.
 */
export interface SubscriptionsTable {
  id: string;
  /** Unique: a user holds at most one subscription; renewals and upgrades update this row. */
  user_id: string;
  plan_id: PlanId;
  currency: Currency;
  status: 'active' | 'cancelled';
  start_date: Timestamp;
  end_date: Timestamp;
  cancelled_at: Timestamp | null;
  cancellation_reason: string | null;
  /** The order that last paid for this row (null for none, e.g. seeded by an admin). */
  last_order_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The admin who granted this plan as a comp; null when it was paid for. */
  granted_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AdminAuditLogTable {
  id: string;
  action: AuditAction;
  admin_id: string;
  admin_email: string;
  target_user_id: string;
  target_email: string;
  reason: string;
  details: string;
  created_at: Timestamp;
}

export interface PaymentOrdersTable {
  /** Our id, sent to the provider as the receipt. */
  id: string;
  user_id: string;
  plan_id: PlanId;
  currency: Currency;
  /** What the buyer pays, in minor units (paise or cents), GST included. */
  amount: number;
  /** 'new' (first or renewed period), 'upgrade' (prorated, same end date) or 'change' (replaces a cancelled plan). */
  kind: 'new' | 'upgrade' | 'change';
  /** For 'upgrade': the end date the proration was priced to, which the upgraded plan keeps. Null otherwise (a new period starts when paid). */
  period_end: Timestamp | null;
  status: 'created' | 'paid';
  /** The provider's order id (order_… at Razorpay, order_test_… in test checkout mode). Unique. */
  provider_order_id: string;
  provider: 'razorpay' | 'test';
  provider_payment_id: string | null;
  created_at: Timestamp;
  paid_at: Timestamp | null;
}
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type PaymentOrderRow = Selectable<PaymentOrdersTable>;

/** A creator's account on a platform; the tokens are sealed under the encryption key (publishing/connection-store.ts). */
export interface PlatformConnectionsTable {
  user_id: string;
  platform: string;
  account_id: string;
  account_name: string;
  access_token_sealed: string;
  refresh_token_sealed: string | null;
  expires_at: string | null;
  scope: Generated<string>;
  needs_reconnect: Generated<number>;
  connected_at: string;
  updated_at: string;
}

export interface PlatformOauthStatesTable {
  state: string;
  user_id: string;
  platform: string;
  code_verifier: string | null;
  /** SHA-256 (hex) of the starting browser's binding cookie. */
  browser_binding: string;
  created_at: string;
}

export interface PublicationsTable {
  id: string;
  user_id: string;
  video_id: string;
  platform: string;
  status: string;
  active_key: string | null;
  title: string;
  description: string;
  hashtags: string;
  privacy: string;
  publish_at: string | null;
  run_at: string;
  claimed_until: string | null;
  attempts: Generated<number>;
  progress: Generated<number>;
  remote_state: string | null;
  remote_id: string | null;
  url: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}
export type PublicationRow = Selectable<PublicationsTable>;
export type PlatformConnectionRow = Selectable<PlatformConnectionsTable>;
