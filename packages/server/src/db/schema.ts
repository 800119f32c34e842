import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type { Currency, JobStatus, PlanId, Role } from '@reelsmith/contracts';

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
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  user_agent: string | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  /** SHA-256 hex of the key, for lookup. */
  key_hash: string;
  /** The first characters of the key, to recognise it in lists and logs. */
  key_prefix: string;
  /** The key under AES-256-GCM (see auth/api-keys.ts), so its owner can read it back. */
  key_encrypted: string;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
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
  /** The version this job's current (or last) run makes: 1, then one more per storyboard render. */
  version: ColumnType<number, number | undefined, number>;
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
  subscriptions: SubscriptionsTable;
  payment_orders: PaymentOrdersTable;
  video_versions: VideoVersionsTable;
  video_storyboards: VideoStoryboardsTable;
  uploads: UploadsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type VideoJobRow = Selectable<VideoJobsTable>;
export type NewVideoJob = Insertable<VideoJobsTable>;


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
