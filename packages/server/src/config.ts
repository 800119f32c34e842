import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ENCRYPTION_KEY_MIN_LENGTH, EncryptionKeyError, loadEncryptionKey, type EncryptionKeySettings } from './encryption-key.js';

/** packages/server/src/config.ts → the repository root, three levels up. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export const DEFAULT_GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
export const DEFAULT_GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'] as const;
export const JWT_SECRET_MIN_LENGTH = 32;
export const DEFAULT_RAZORPAY_API_BASE_URL = 'https://api.razorpay.com';
export const PUBLISHING_DEFAULT_URLS = {
  GOOGLE_OAUTH_AUTHORIZE_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
  GOOGLE_OAUTH_TOKEN_URL: 'https://oauth2.googleapis.com/token',
  GOOGLE_OAUTH_REVOKE_URL: 'https://oauth2.googleapis.com/revoke',
  YOUTUBE_API_URL: 'https://www.googleapis.com',
  TIKTOK_AUTH_URL: 'https://www.tiktok.com/v2/auth/authorize/',
  TIKTOK_API_URL: 'https://open.tiktokapis.com',
  INSTAGRAM_AUTH_URL: 'https://www.instagram.com/oauth/authorize',
  INSTAGRAM_TOKEN_URL: 'https://api.instagram.com/oauth/access_token',
  INSTAGRAM_GRAPH_URL: 'https://graph.instagram.com',
} as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

/** Every environment variable the server reads, as data: the README table is generated and checked from it. */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  { name: 'PORT', default: '8080', description: 'TCP port the HTTP server listens on.' },
  { name: 'HOST', default: '0.0.0.0', description: 'Interface the HTTP server binds to.' },
  {
    name: 'DATA_DIR',
    default: './data',
    description: 'Directory for the SQLite database, generated videos, audio samples and secrets.json. Created on first start.',
  },
  {
    name: 'DATABASE_URL',
    default: '(unset: SQLite at DATA_DIR/reelsmith.db)',
    description: 'PostgreSQL connection string. When set, PostgreSQL is used instead of SQLite.',
  },
  {
    name: 'JWT_SECRET',
    default: '(generated once into DATA_DIR/secrets.json)',
    description: `Secret that signs session tokens; at least ${JWT_SECRET_MIN_LENGTH} characters.`,
  },
  {
    name: 'ENCRYPTION_KEY',
    default: '(unset: ENCRYPTION_KEY_FILE)',
    description: `Key that encrypts the stored studio API keys and webhook secrets; at least ${ENCRYPTION_KEY_MIN_LENGTH} characters (\`openssl rand -base64 32\`). Keep it out of DATA_DIR and back it up apart from it.`,
  },
  {
    name: 'ENCRYPTION_KEY_FILE',
    default: '(unset: in development, generated once into <DATA_DIR>.encryption-key; required in production)',
    description:
      'Path of a file holding the encryption key instead of ENCRYPTION_KEY; refused inside DATA_DIR, so a copy of the data directory never carries it.',
  },
  {
    name: 'ADMIN_EMAILS',
    default: '(none)',
    description:
      'Comma-separated e-mails that get the admin role at sign-in, once the address is verified (case-insensitive). `npm run admin -- grant|revoke <email>` overrides it per account.',
  },
  { name: 'GOOGLE_CLIENT_ID', default: '(unset: Google sign-in off)', description: 'OAuth client id; enables Google sign-in.' },
  { name: 'GOOGLE_JWKS_URL', default: DEFAULT_GOOGLE_JWKS_URL, description: "Where Google's token signing keys are fetched from." },
  {
    name: 'GOOGLE_ISSUERS',
    default: DEFAULT_GOOGLE_ISSUERS.join(','),
    description: 'Comma-separated accepted issuers of Google ID tokens.',
  },
  { name: 'WEB_DIST_DIR', default: '<repo>/dist/web', description: 'Built web app served with history fallback.' },
  { name: 'LOG_LEVEL', default: 'info', description: `Log level: ${LOG_LEVELS.join(', ')}.` },
  {
    name: 'TRUST_PROXY',
    default: 'false',
    description: 'Trust X-Forwarded-* headers: true, false, a hop count, or comma-separated proxy addresses.',
  },
  {
    name: 'RATE_LIMIT_AUTH_MAX',
    default: '10',
    description:
      'Sign-in, sign-up and reset requests allowed per minute per IP and per (e-mail, IP) pair; failed sign-ins also add growing delays.',
  },
  {
    name: 'QUEUE_CONCURRENCY',
    default: '1',
    description: 'Video jobs generated at the same time. Each one runs ffmpeg on the whole machine; raise it only with spare cores.',
  },
  {
    name: 'QUEUE_BACKEND',
    default: 'embedded',
    description:
      'Where video jobs run: `embedded` (in the server process, jobs kept in the database) or `bullmq` (a BullMQ queue on REDIS_URL; run the jobs with `npm run worker` processes).',
  },
  {
    name: 'REDIS_URL',
    default: '(none; required by QUEUE_BACKEND=bullmq)',
    description: 'Redis for the BullMQ queue and the job events between worker and API processes (redis:// or rediss://).',
  },
  {
    name: 'QUEUE_PREFIX',
    default: 'reelsmith',
    description: 'Redis key prefix of the queue; every process of one deployment uses the same one.',
  },
  {
    name: 'RAZORPAY_KEY_ID',
    default: '(unset: built-in TEST MODE checkout)',
    description: 'Razorpay key id (rzp_live_… or rzp_test_…). Set together with RAZORPAY_KEY_SECRET to take real payments.',
  },
  {
    name: 'RAZORPAY_KEY_SECRET',
    default: '(unset)',
    description: 'Razorpay key secret: authenticates order creation and verifies payment signatures. Never logged.',
  },
  {
    name: 'RAZORPAY_WEBHOOK_SECRET',
    default: '(unset: webhook answers 503)',
    description: 'Secret of the Razorpay webhook (payment.captured) that POSTs to /payments/webhook.',
  },
  {
    name: 'RAZORPAY_API_BASE_URL',
    default: DEFAULT_RAZORPAY_API_BASE_URL,
    description: "Razorpay's API host (tests point it at a local fake).",
  },
  {
    name: 'GEO_COUNTRY_HEADER',
    default: '(unset: local GeoIP lookup)',
    description: "Request header a trusted proxy sets to the visitor's ISO country code (e.g. CF-IPCountry), used for location pricing.",
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE',
    default: 'false',
    description:
      'true lets webhooks point at loopback, private, link-local and cloud metadata addresses (tests, a local receiver). Refused otherwise.',
  },
  {
    name: 'SOURCE_ALLOW_PRIVATE',
    default: 'false',
    description:
      'true lets a video\'s source link (`source: {kind: "url"}`) point at loopback, private, link-local and metadata addresses (tests, an intranet). Refused otherwise.',
  },
  {
    name: 'EMBED_ALLOWED_ORIGINS',
    default: "(none: only this server's own pages)",
    description:
      'Comma-separated origins (https://partner.example) allowed to frame the studio at /embed; sent as its CSP frame-ancestors.',
  },
  { name: 'EMBED_DEMO', default: 'false', description: 'true serves the embed demo page at /embed/demo (the snippet and a live embed).' },
  {
    name: 'GALLERY_EXAMPLES',
    default: 'on',
    description:
      "on: after start the server makes the visitor page's three example videos (one per format, offline generator, one at a time, each in a process of its own at the lowest priority, stopped while any creator's job is queued or running or requests are being answered) once into DATA_DIR/gallery; off: no gallery (test runs, machines without spare CPU).",
  },
  {
    name: 'S3_BUCKET',
    default: '(unset: files under DATA_DIR)',
    description:
      'S3-compatible bucket for finished videos, posters, uploads and voice samples (AWS S3, Cloudflare R2, MinIO, Backblaze B2). When set, no process needs a shared DATA_DIR.',
  },
  {
    name: 'S3_ENDPOINT',
    default: '(unset: AWS S3)',
    description: 'Endpoint URL of an S3-compatible store, e.g. https://<account>.r2.cloudflarestorage.com or http://minio:9000.',
  },
  { name: 'S3_REGION', default: 'us-east-1', description: 'Region of the bucket (`auto` for Cloudflare R2).' },
  {
    name: 'S3_ACCESS_KEY_ID',
    default: '(unset: the AWS SDK default chain)',
    description: 'Access key id; set together with S3_SECRET_ACCESS_KEY.',
  },
  { name: 'S3_SECRET_ACCESS_KEY', default: '(unset)', description: 'Secret access key. Never logged.' },
  {
    name: 'S3_FORCE_PATH_STYLE',
    default: 'false',
    description: 'Address the bucket as <endpoint>/<bucket> instead of <bucket>.<endpoint> (MinIO and most self-hosted stores need true).',
  },
  {
    name: 'S3_PROXY',
    default: 'false',
    description:
      'true: the API streams files from the bucket itself (Range supported); false: it redirects to a presigned URL valid for 5 minutes.',
  },
  {
    name: 'SMTP_URL',
    default: '(unset: links are logged)',
    description:
      'SMTP server for verification and password-reset mail (smtp:// or smtps://, credentials in the URL). Without it and MAIL_FROM the server logs each link instead.',
  },
  { name: 'MAIL_FROM', default: '(unset)', description: 'Sender address of account e-mail, e.g. `Reelsmith <no-reply@example.com>`.' },
  {
    name: 'PUBLIC_URL',
    default: 'http://localhost:PORT',
    description: 'The address users open the studio at; e-mailed links point here (never at the Host header of a request).',
  },
  {
    name: 'METRICS_TOKEN',
    default: '(unset: GET /metrics is open, except on PORT in production)',
    description:
      'When set, GET /metrics (the API, and METRICS_PORT) answers only `Authorization: Bearer <METRICS_TOKEN>`; at least 16 characters. With NODE_ENV=production and no token, the API does not serve /metrics on PORT (use METRICS_PORT).',
  },
  {
    name: 'METRICS_PORT',
    default: '(unset: a worker serves no metrics)',
    description:
      'A worker process (`npm run worker`) serves GET /metrics and GET /ready on this port; the API serves them here too, besides PORT (for a scraper on an internal network).',
  },
  {
    name: 'SHUTDOWN_GRACE_SECONDS',
    default: '25',
    description:
      'On SIGTERM the server stops taking connections and jobs (GET /ready answers 503) and waits this long for requests and running steps to finish before it hands the rest back to the queue and exits.',
  },
  {
    name: 'YOUTUBE_CLIENT_ID',
    default: '(unset: YouTube not offered)',
    description:
      'Google OAuth client id (web application) for publishing to YouTube; its redirect URI is PUBLIC_URL/api/connections/youtube/callback.',
  },
  { name: 'YOUTUBE_CLIENT_SECRET', default: '(unset)', description: 'Secret of that Google OAuth client. Never logged.' },
  {
    name: 'GOOGLE_OAUTH_AUTHORIZE_URL',
    default: PUBLISHING_DEFAULT_URLS.GOOGLE_OAUTH_AUTHORIZE_URL,
    description: "Google's consent page (tests point it at a local fake).",
  },
  { name: 'GOOGLE_OAUTH_TOKEN_URL', default: PUBLISHING_DEFAULT_URLS.GOOGLE_OAUTH_TOKEN_URL, description: "Google's token endpoint." },
  {
    name: 'GOOGLE_OAUTH_REVOKE_URL',
    default: PUBLISHING_DEFAULT_URLS.GOOGLE_OAUTH_REVOKE_URL,
    description: "Google's token revocation endpoint.",
  },
  {
    name: 'YOUTUBE_API_URL',
    default: PUBLISHING_DEFAULT_URLS.YOUTUBE_API_URL,
    description: 'Base of the YouTube Data API v3, for both /upload/youtube/v3/… and /youtube/v3/….',
  },
  {
    name: 'TIKTOK_CLIENT_KEY',
    default: '(unset: TikTok not offered)',
    description:
      'TikTok app client key (Login Kit and Content Posting API, Direct Post); redirect URI PUBLIC_URL/api/connections/tiktok/callback.',
  },
  { name: 'TIKTOK_CLIENT_SECRET', default: '(unset)', description: 'TikTok app client secret. Never logged.' },
  { name: 'TIKTOK_AUTH_URL', default: PUBLISHING_DEFAULT_URLS.TIKTOK_AUTH_URL, description: "TikTok's authorization page." },
  {
    name: 'TIKTOK_API_URL',
    default: PUBLISHING_DEFAULT_URLS.TIKTOK_API_URL,
    description: "TikTok's Open API (tokens and Content Posting).",
  },
  {
    name: 'TIKTOK_APP_AUDITED',
    default: 'false',
    description:
      'Whether TikTok has audited this app (Content Posting API). Until it has, TikTok takes only private posts (SELF_ONLY, from a private account): the studio offers Private only.',
  },
  {
    name: 'INSTAGRAM_APP_ID',
    default: '(unset: Instagram not offered)',
    description:
      'Instagram app id (Instagram API with Instagram Login); redirect URI PUBLIC_URL/api/connections/instagram/callback. Instagram fetches the video from PUBLIC_URL, so it must be reachable from the internet.',
  },
  { name: 'INSTAGRAM_APP_SECRET', default: '(unset)', description: 'Instagram app secret. Never logged.' },
  { name: 'INSTAGRAM_AUTH_URL', default: PUBLISHING_DEFAULT_URLS.INSTAGRAM_AUTH_URL, description: "Instagram's authorization page." },
  {
    name: 'INSTAGRAM_TOKEN_URL',
    default: PUBLISHING_DEFAULT_URLS.INSTAGRAM_TOKEN_URL,
    description: "Instagram's code exchange (short-lived token); the long-lived one comes from INSTAGRAM_GRAPH_URL.",
  },
  { name: 'INSTAGRAM_GRAPH_URL', default: PUBLISHING_DEFAULT_URLS.INSTAGRAM_GRAPH_URL, description: "Instagram's Graph API host." },
  {
    name: 'PAYMENTS_TEST_CHECKOUT',
    default: 'false',
    description:
      'With NODE_ENV=production and no Razorpay keys, set true to allow the free TEST MODE checkout on purpose (a warning is logged at start).',
  },
];

const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== ''),
);

const trustProxySchema = z.string().transform((value, ctx): boolean | number | string[] => {
  const text = value.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(text)) return true;
  if (['false', 'no', 'off'].includes(text)) return false;
  if (/^\d+$/.test(text)) return Number(text);
  const addresses = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (addresses.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count or a list of addresses' });
    return z.NEVER;
  }
  return addresses;
});

/**
 * A yes/no variable: zod's stringbool takes the usual spellings, case-insensitively (true/false,
 * 1/0, yes/no, on/off, y/n, enabled/disabled), so SOURCE_ALLOW_PRIVATE=1 means what it says.
 */
export const BOOLEAN_SPELLINGS_MESSAGE = 'must be true or false (1/0, yes/no and on/off are accepted too)';
const booleanFlag = z
  .string()
  .trim()
  .pipe(z.stringbool({ error: BOOLEAN_SPELLINGS_MESSAGE }));

const urlSchema = z.url({ message: 'must be a URL' });

const envObjectSchema = z.object({
  PORT: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be 1-65535')
    .max(65535, 'must be 1-65535')
    .default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  JWT_SECRET: z.string().min(JWT_SECRET_MIN_LENGTH, `must be at least ${JWT_SECRET_MIN_LENGTH} characters`).optional(),
  ENCRYPTION_KEY: z.string().trim().min(ENCRYPTION_KEY_MIN_LENGTH, `must be at least ${ENCRYPTION_KEY_MIN_LENGTH} characters`).optional(),
  ENCRYPTION_KEY_FILE: z.string().trim().min(1).optional(),
  ADMIN_EMAILS: commaList.default([]).transform((emails) => emails.map((email) => email.toLowerCase())),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_JWKS_URL: urlSchema.default(DEFAULT_GOOGLE_JWKS_URL),
  GOOGLE_ISSUERS: commaList.default([...DEFAULT_GOOGLE_ISSUERS]).refine((issuers) => issuers.length > 0, 'must list at least one issuer'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  TRUST_PROXY: trustProxySchema.default(false),
  RATE_LIMIT_AUTH_MAX: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be at least 1').default(10),
  QUEUE_CONCURRENCY: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be 1-16')
    .max(16, 'must be 1-16')
    .default(1),
  QUEUE_BACKEND: z.enum(['embedded', 'bullmq'], { message: 'must be embedded or bullmq' }).default('embedded'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'must be 1-40 letters, digits, dots, dashes or underscores')
    .default('reelsmith'),
  RAZORPAY_KEY_ID: z.string().trim().min(1).optional(),
  RAZORPAY_KEY_SECRET: z.string().trim().min(1).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().trim().min(1).optional(),
  RAZORPAY_API_BASE_URL: urlSchema.default(DEFAULT_RAZORPAY_API_BASE_URL).transform((url) => url.replace(/\/+$/, '')),
  GEO_COUNTRY_HEADER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
    .transform((name) => name.toLowerCase())
    .optional(),
  WEBHOOK_ALLOW_PRIVATE: booleanFlag.default(false),
  SOURCE_ALLOW_PRIVATE: booleanFlag.default(false),
  EMBED_ALLOWED_ORIGINS: commaList
    .default([])
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/,
            'must list origins like https://partner.example or http://localhost:3000 (scheme, host, optional port; no path)',
          ),
      ),
    ),
  EMBED_DEMO: booleanFlag.default(false),
  GALLERY_EXAMPLES: booleanFlag.default(true),
  S3_BUCKET: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lower-case letters, digits, dots or dashes')
    .optional(),
  S3_ENDPOINT: urlSchema.optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  S3_PROXY: booleanFlag.default(false),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).optional(),
  PUBLIC_URL: urlSchema.transform((url) => url.replace(/\/+$/, '')).optional(),
  PAYMENTS_TEST_CHECKOUT: booleanFlag.default(false),
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 65535')
    .max(65535, 'must be between 1 and 65535')
    .optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce
    .number({ message: 'must be a number' })
    .min(1, 'must be at least 1')
    .max(600, 'must be at most 600')
    .default(25),
  YOUTUBE_CLIENT_ID: z.string().trim().min(1).optional(),
  YOUTUBE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  GOOGLE_OAUTH_AUTHORIZE_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.GOOGLE_OAUTH_AUTHORIZE_URL),
  GOOGLE_OAUTH_TOKEN_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.GOOGLE_OAUTH_TOKEN_URL),
  GOOGLE_OAUTH_REVOKE_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.GOOGLE_OAUTH_REVOKE_URL),
  YOUTUBE_API_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.YOUTUBE_API_URL).transform((url) => url.replace(/\/+$/, '')),
  TIKTOK_CLIENT_KEY: z.string().trim().min(1).optional(),
  TIKTOK_CLIENT_SECRET: z.string().trim().min(1).optional(),
  TIKTOK_AUTH_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.TIKTOK_AUTH_URL),
  TIKTOK_API_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.TIKTOK_API_URL).transform((url) => url.replace(/\/+$/, '')),
  TIKTOK_APP_AUDITED: booleanFlag.default(false),
  INSTAGRAM_APP_ID: z.string().trim().min(1).optional(),
  INSTAGRAM_APP_SECRET: z.string().trim().min(1).optional(),
  INSTAGRAM_AUTH_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.INSTAGRAM_AUTH_URL),
  INSTAGRAM_TOKEN_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.INSTAGRAM_TOKEN_URL),
  INSTAGRAM_GRAPH_URL: urlSchema.default(PUBLISHING_DEFAULT_URLS.INSTAGRAM_GRAPH_URL).transform((url) => url.replace(/\/+$/, '')),
});

const envSchema = envObjectSchema
  .refine((vars) => vars.QUEUE_BACKEND !== 'bullmq' || Boolean(vars.REDIS_URL), {
    message: 'is required when QUEUE_BACKEND is bullmq',
    path: ['REDIS_URL'],
  })
  .refine((vars) => Boolean(vars.RAZORPAY_KEY_ID) === Boolean(vars.RAZORPAY_KEY_SECRET), {
    message: 'RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET must be set together',
    path: ['RAZORPAY_KEY_SECRET'],
  })
  .refine((vars) => Boolean(vars.YOUTUBE_CLIENT_ID) === Boolean(vars.YOUTUBE_CLIENT_SECRET), {
    message: 'YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET must be set together',
    path: ['YOUTUBE_CLIENT_SECRET'],
  })
  .refine((vars) => Boolean(vars.TIKTOK_CLIENT_KEY) === Boolean(vars.TIKTOK_CLIENT_SECRET), {
    message: 'TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET must be set together',
    path: ['TIKTOK_CLIENT_SECRET'],
  })
  .refine((vars) => Boolean(vars.INSTAGRAM_APP_ID) === Boolean(vars.INSTAGRAM_APP_SECRET), {
    message: 'INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET must be set together',
    path: ['INSTAGRAM_APP_SECRET'],
  })
  .refine((vars) => Boolean(vars.S3_ACCESS_KEY_ID) === Boolean(vars.S3_SECRET_ACCESS_KEY), {
    message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    path: ['S3_SECRET_ACCESS_KEY'],
  });

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** Absolute paths of everything the server keeps on disk. */
  paths: {
    dataDir: string;
    /** Used only when `databaseUrl` is unset. */
    sqliteFile: string;
    /** Finished videos, served under /output. */
    outputDir: string;
    /** Voice preview samples, served under /audio/voice-samples. */
    voiceSamplesDir: string;
    secretsFile: string;
    webDistDir: string;
  };
  database: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };
  jwtSecret: string;
  jwtSecretSource: 'env' | 'secrets-file';
  /** Seals the studio API keys and webhook secrets; never read from DATA_DIR (encryption-key.ts). */
  encryption: EncryptionKeySettings;
  adminEmails: string[];
  google: { clientId: string | null; jwksUrl: string; issuers: string[] };
  logLevel: LogLevel;
  trustProxy: boolean | number | string[];
  rateLimitAuthMax: number;
  /** Video jobs run at the same time by the embedded queue, or by each worker process. */
  queueConcurrency: number;
  /** embedded: jobs run in this process; bullmq: on a Redis queue, run by `npm run worker` processes. */
  queue: { backend: 'embedded' } | { backend: 'bullmq'; redisUrl: string; prefix: string };
  /** Null: the built-in test checkout takes the place of Razorpay. */
  razorpay: { keyId: string; keySecret: string; apiBaseUrl: string } | null;
  /** Checked on POST /payments/webhook; null answers that route with 503. */
  razorpayWebhookSecret: string | null;
  razorpayApiBaseUrl: string;
  /** Lower-cased header name a trusted proxy fills with the client's country code, or null. */
  geoCountryHeader: string | null;
  /** Webhook URLs may resolve to loopback/private/link-local/metadata addresses (tests, local receivers). */
  webhookAllowPrivate: boolean;
  /** Source links may resolve to loopback/private/link-local/metadata addresses (tests, intranets). */
  sourceAllowPrivate: boolean;
  /** Origins allowed to frame /embed (CSP frame-ancestors), besides this server's own. */
  embedAllowedOrigins: string[];
  embedDemo: boolean;
  /** Make and serve the visitor page's example videos (gallery/gallery-plugin.ts). */
  galleryExamples: boolean;
  /** Where finished videos, posters, uploads and voice samples are kept (storage/create-storage.ts). */
  storage: StorageSettings;
  /** Null: account e-mail links are logged instead of sent. */
  mail: { smtpUrl: string; from: string } | null;
  /** Base of every e-mailed link. */
  publicUrl: string;
  /** NODE_ENV=production: the TEST MODE checkout is refused unless `testCheckoutAllowed`. */
  production: boolean;
  testCheckoutAllowed: boolean;
  /** GET /metrics: its bearer token (null: open) and the port a worker serves it on (null: none). */
  metrics: { token: string | null; workerPort: number | null };
  /** How long a SIGTERM waits for requests and running steps before the rest goes back to the queue. */
  shutdownGraceSeconds: number;
  /** The platforms videos can be published to; null where the client id is unset (the platform is not offered). */
  publishing: PublishingSettings;
}

export interface PublishingSettings {
  youtube: {
    clientId: string;
    clientSecret: string;
    authorizeUrl: string;
    tokenUrl: string;
    revokeUrl: string;
    apiUrl: string;
  } | null;
  tiktok: { clientKey: string; clientSecret: string; authUrl: string; apiUrl: string; audited: boolean } | null;
  instagram: { appId: string; appSecret: string; authUrl: string; tokenUrl: string; graphUrl: string } | null;
}

export type StorageSettings =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string | null;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
      forcePathStyle: boolean;
      proxy: boolean;
    };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** Blank values count as unset, so `PORT=` in a .env file means "use the default". */
function withoutBlanks(env: Env): Record<string, string> {
  const known = new Set(CONFIG_VARIABLES.map((variable) => variable.name));
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (known.has(name) && value !== undefined && value.trim() !== '') result[name] = value;
  }
  return result;
}

/** Variables whose values never appear in an error message. */
const SECRET_VARIABLES = new Set([
  'METRICS_TOKEN',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'RAZORPAY_KEY_SECRET',
  'RAZORPAY_WEBHOOK_SECRET',
  'S3_SECRET_ACCESS_KEY',
  'YOUTUBE_CLIENT_SECRET',
  'TIKTOK_CLIENT_SECRET',
  'INSTAGRAM_APP_SECRET',
]);

/** Validates the environment without touching the disk. */
export function parseEnv(env: Env): z.output<typeof envSchema> {
  const result = envSchema.safeParse(withoutBlanks(env));
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const raw = SECRET_VARIABLES.has(name) ? '' : ` (got "${env[name] ?? ''}")`;
      return `  ${name}: ${issue.message}${raw}`;
    });
    throw new ConfigError(`Invalid environment variable${lines.length > 1 ? 's' : ''}:\n${lines.join('\n')}`);
  }
  return result.data;
}

const secretsFileSchema = z.object({ jwtSecret: z.string().min(JWT_SECRET_MIN_LENGTH) });

/** Reads the generated secret, or writes a new one readable only by this user, so restarts keep sessions. */
function loadOrCreateJwtSecret(secretsFile: string): string {
  if (existsSync(secretsFile)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(secretsFile, 'utf8'));
    } catch {
      throw new ConfigError(`${secretsFile} is not valid JSON; fix it, delete it, or set JWT_SECRET`);
    }
    const secrets = secretsFileSchema.safeParse(parsed);
    if (!secrets.success) throw new ConfigError(`${secretsFile} has no usable jwtSecret; delete it or set JWT_SECRET`);
    return secrets.data.jwtSecret;
  }
  const jwtSecret = randomBytes(48).toString('base64url');
  writeFileSync(secretsFile, `${JSON.stringify({ jwtSecret }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(secretsFile, 0o600);
  return jwtSecret;
}

/**
 * Parses the environment once into a typed Config, creating DATA_DIR and the persisted secret on
 * first start. Throws ConfigError naming the bad variable.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const vars = parseEnv(env);
  const dataDir = isAbsolute(vars.DATA_DIR) ? vars.DATA_DIR : resolve(cwd, vars.DATA_DIR);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError(`DATA_DIR: cannot create ${dataDir} (${(error as Error).message})`);
  }
  const paths = {
    dataDir,
    sqliteFile: join(dataDir, 'reelsmith.db'),
    outputDir: join(dataDir, 'output'),
    voiceSamplesDir: join(dataDir, 'audio', 'voice-samples'),
    secretsFile: join(dataDir, 'secrets.json'),
    webDistDir: vars.WEB_DIST_DIR ? resolve(cwd, vars.WEB_DIST_DIR) : join(REPO_ROOT, 'dist', 'web'),
  };
  mkdirSync(paths.outputDir, { recursive: true });
  mkdirSync(paths.voiceSamplesDir, { recursive: true });

  const jwtSecret = vars.JWT_SECRET ?? loadOrCreateJwtSecret(paths.secretsFile);
  let encryption: EncryptionKeySettings;
  try {
    const file = vars.ENCRYPTION_KEY_FILE ? resolve(cwd, vars.ENCRYPTION_KEY_FILE) : undefined;
    encryption = loadEncryptionKey({ key: vars.ENCRYPTION_KEY, file, dataDir, production: env.NODE_ENV === 'production' });
  } catch (error) {
    if (error instanceof EncryptionKeyError) throw new ConfigError(error.message);
    throw error;
  }
  return {
    port: vars.PORT,
    host: vars.HOST,
    paths,
    database: vars.DATABASE_URL ? { dialect: 'postgres', url: vars.DATABASE_URL } : { dialect: 'sqlite', file: paths.sqliteFile },
    jwtSecret,
    jwtSecretSource: vars.JWT_SECRET ? 'env' : 'secrets-file',
    encryption,
    adminEmails: vars.ADMIN_EMAILS,
    google: { clientId: vars.GOOGLE_CLIENT_ID ?? null, jwksUrl: vars.GOOGLE_JWKS_URL, issuers: vars.GOOGLE_ISSUERS },
    logLevel: vars.LOG_LEVEL,
    trustProxy: vars.TRUST_PROXY,
    rateLimitAuthMax: vars.RATE_LIMIT_AUTH_MAX,
    queueConcurrency: vars.QUEUE_CONCURRENCY,
    queue:
      vars.QUEUE_BACKEND === 'bullmq' && vars.REDIS_URL
        ? { backend: 'bullmq', redisUrl: vars.REDIS_URL, prefix: vars.QUEUE_PREFIX }
        : { backend: 'embedded' },
    razorpay:
      vars.RAZORPAY_KEY_ID && vars.RAZORPAY_KEY_SECRET
        ? {
            keyId: vars.RAZORPAY_KEY_ID,
            keySecret: vars.RAZORPAY_KEY_SECRET,
            apiBaseUrl: vars.RAZORPAY_API_BASE_URL,
          }
        : null,
    razorpayWebhookSecret: vars.RAZORPAY_WEBHOOK_SECRET ?? null,
    razorpayApiBaseUrl: vars.RAZORPAY_API_BASE_URL,
    geoCountryHeader: vars.GEO_COUNTRY_HEADER ?? null,
    webhookAllowPrivate: vars.WEBHOOK_ALLOW_PRIVATE,
    sourceAllowPrivate: vars.SOURCE_ALLOW_PRIVATE,
    embedAllowedOrigins: vars.EMBED_ALLOWED_ORIGINS,
    embedDemo: vars.EMBED_DEMO,
    galleryExamples: vars.GALLERY_EXAMPLES,
    storage: vars.S3_BUCKET
      ? {
          kind: 's3',
          bucket: vars.S3_BUCKET,
          endpoint: vars.S3_ENDPOINT ?? null,
          region: vars.S3_REGION,
          credentials:
            vars.S3_ACCESS_KEY_ID && vars.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: vars.S3_ACCESS_KEY_ID, secretAccessKey: vars.S3_SECRET_ACCESS_KEY }
              : null,
          forcePathStyle: vars.S3_FORCE_PATH_STYLE,
          proxy: vars.S3_PROXY,
        }
      : { kind: 'local' },
    mail: vars.SMTP_URL && vars.MAIL_FROM ? { smtpUrl: vars.SMTP_URL, from: vars.MAIL_FROM } : null,
    publicUrl: vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`,
    production: env.NODE_ENV === 'production',
    testCheckoutAllowed: env.NODE_ENV !== 'production' || vars.PAYMENTS_TEST_CHECKOUT,
    metrics: { token: vars.METRICS_TOKEN ?? null, workerPort: vars.METRICS_PORT ?? null },
    shutdownGraceSeconds: vars.SHUTDOWN_GRACE_SECONDS,
    publishing: {
      youtube:
        vars.YOUTUBE_CLIENT_ID && vars.YOUTUBE_CLIENT_SECRET
          ? {
              clientId: vars.YOUTUBE_CLIENT_ID,
              clientSecret: vars.YOUTUBE_CLIENT_SECRET,
              authorizeUrl: vars.GOOGLE_OAUTH_AUTHORIZE_URL,
              tokenUrl: vars.GOOGLE_OAUTH_TOKEN_URL,
              revokeUrl: vars.GOOGLE_OAUTH_REVOKE_URL,
              apiUrl: vars.YOUTUBE_API_URL,
            }
          : null,
      tiktok:
        vars.TIKTOK_CLIENT_KEY && vars.TIKTOK_CLIENT_SECRET
          ? {
              clientKey: vars.TIKTOK_CLIENT_KEY,
              clientSecret: vars.TIKTOK_CLIENT_SECRET,
              authUrl: vars.TIKTOK_AUTH_URL,
              apiUrl: vars.TIKTOK_API_URL,
              audited: vars.TIKTOK_APP_AUDITED,
            }
          : null,
      instagram:
        vars.INSTAGRAM_APP_ID && vars.INSTAGRAM_APP_SECRET
          ? {
              appId: vars.INSTAGRAM_APP_ID,
              appSecret: vars.INSTAGRAM_APP_SECRET,
              authUrl: vars.INSTAGRAM_AUTH_URL,
              tokenUrl: vars.INSTAGRAM_TOKEN_URL,
              graphUrl: vars.INSTAGRAM_GRAPH_URL,
            }
          : null,
    },
  };
}

/** The names of the schema, for checking that CONFIG_VARIABLES documents every one of them. */
export const CONFIG_VARIABLE_NAMES = Object.keys(envObjectSchema.shape);

/** CONFIG_VARIABLES as a Markdown table, for the README (generated and checked from the same data). */
export function configVariablesMarkdown(): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const rows = CONFIG_VARIABLES.map(
    (variable) => `| \`${variable.name}\` | ${escape(variable.default)} | ${escape(variable.description)} |`,
  );
  return ['| Variable | Default | Description |', '|---|---|---|', ...rows].join('\n');
}
