import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, parseEnv, type LogLevel } from './config-schema.js';
import { EncryptionKeyError, loadEncryptionKey, type EncryptionKeySettings } from './encryption-key.js';
import { loadOrCreateJwtSecret } from './secrets-file.js';

// The variables themselves (schema, defaults, descriptions) are declared once in config-schema.ts;
// this file turns them into the typed Config the server runs with.
export { CONFIG_VARIABLES, ConfigError, parseEnv, type ConfigVariable, type LogLevel } from './config-schema.js';

/** packages/server/src/config.ts → the repository root, three levels up. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

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

/** S3_*: an S3-compatible store (storage/s3-storage.ts takes these as they are). */
export interface S3StorageSettings {
  bucket: string;
  /** Unset: AWS S3 itself. */
  endpoint: string | null;
  region: string;
  /** Unset: the SDK's default chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /** Stream through the API (Range included) instead of redirecting to a presigned URL. */
  proxy: boolean;
}

export type StorageSettings = { kind: 'local' } | ({ kind: 's3' } & S3StorageSettings);

type Env = Record<string, string | undefined>;

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
