import { z } from 'zod';
import { ENCRYPTION_KEY_MIN_LENGTH } from './encryption-key.js';

/**
 * Every environment variable the server reads, declared once: its zod schema holds the parsing, the
 * checks and the default; `variable()` adds what docs/configuration.md says about it. The parser
 * (`parseEnv`), the page's table (`CONFIG_VARIABLES`, written by `npm run docs:config`) and the
 * start-up checks (pairs set together, values never echoed) all come from this one object.
 */

export const JWT_SECRET_MIN_LENGTH = 32;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface VariableDoc {
  description: string;
  /** What the page says the default is; left out, it is the schema's own default as written in a .env file. */
  default?: string;
  /** Its value never appears in an error message. */
  secret?: true;
  /** The variable that must be set together with this one (both or neither). */
  setWith?: string;
}

const variableDocs = z.registry<VariableDoc>();

/** One variable: its schema, documented. */
function variable<T extends z.ZodType>(schema: T, doc: VariableDoc): T {
  variableDocs.add(schema, doc);
  return schema;
}

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
const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');
const port = (range: string) => z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, range).max(65535, range);

/** In the order docs/configuration.md lists them. */
const envObjectSchema = z.object({
  PORT: variable(port('must be 1-65535').default(8080), { description: 'TCP port the HTTP server listens on.' }),
  HOST: variable(z.string().min(1).default('0.0.0.0'), { description: 'Interface the HTTP server binds to.' }),
  DATA_DIR: variable(z.string().min(1).default('./data'), {
    description: 'Directory for the SQLite database, generated videos, audio samples and secrets.json. Created on first start.',
  }),
  DATABASE_URL: variable(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
      .optional(),
    {
      default: '(unset: SQLite at DATA_DIR/reelsmith.db)',
      description: 'PostgreSQL connection string. When set, PostgreSQL is used instead of SQLite.',
      secret: true,
    },
  ),
  JWT_SECRET: variable(z.string().min(JWT_SECRET_MIN_LENGTH, `must be at least ${JWT_SECRET_MIN_LENGTH} characters`).optional(), {
    default: '(generated once into DATA_DIR/secrets.json)',
    description: `Secret that signs session tokens; at least ${JWT_SECRET_MIN_LENGTH} characters.`,
    secret: true,
  }),
  ENCRYPTION_KEY: variable(
    z.string().trim().min(ENCRYPTION_KEY_MIN_LENGTH, `must be at least ${ENCRYPTION_KEY_MIN_LENGTH} characters`).optional(),
    {
      default: '(unset: ENCRYPTION_KEY_FILE)',
      description: `Key that encrypts the stored studio API keys and webhook secrets; at least ${ENCRYPTION_KEY_MIN_LENGTH} characters (\`openssl rand -base64 32\`). Keep it out of DATA_DIR and back it up apart from it.`,
      secret: true,
    },
  ),
  ENCRYPTION_KEY_FILE: variable(z.string().trim().min(1).optional(), {
    default: '(unset: in development, generated once into <DATA_DIR>.encryption-key; required in production)',
    description:
      'Path of a file holding the encryption key instead of ENCRYPTION_KEY; refused inside DATA_DIR, so a copy of the data directory never carries it.',
  }),
  ADMIN_EMAILS: variable(
    commaList.default([]).transform((emails) => emails.map((email) => email.toLowerCase())),
    {
      default: '(none)',
      description:
        'Comma-separated e-mails that get the admin role at sign-in, once the address is verified (case-insensitive). `npm run admin -- grant|revoke <email>` overrides it per account.',
    },
  ),
  GOOGLE_CLIENT_ID: variable(z.string().min(1).optional(), {
    default: '(unset: Google sign-in off)',
    description: 'OAuth client id; enables Google sign-in.',
  }),
  GOOGLE_JWKS_URL: variable(urlSchema.default('https://www.googleapis.com/oauth2/v3/certs'), {
    description: "Where Google's token signing keys are fetched from.",
  }),
  GOOGLE_ISSUERS: variable(
    commaList
      .default(['accounts.google.com', 'https://accounts.google.com'])
      .refine((issuers) => issuers.length > 0, 'must list at least one issuer'),
    { description: 'Comma-separated accepted issuers of Google ID tokens.' },
  ),
  WEB_DIST_DIR: variable(z.string().min(1).optional(), {
    default: '<repo>/dist/web',
    description: 'Built web app served with history fallback.',
  }),
  LOG_LEVEL: variable(z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'), {
    description: `Log level: ${LOG_LEVELS.join(', ')}.`,
  }),
  TRUST_PROXY: variable(trustProxySchema.default(false), {
    description: 'Trust X-Forwarded-* headers: true, false, a hop count, or comma-separated proxy addresses.',
  }),
  RATE_LIMIT_AUTH_MAX: variable(
    z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be at least 1').default(10),
    {
      description:
        'Sign-in, sign-up and reset requests allowed per minute per IP and per (e-mail, IP) pair; failed sign-ins also add growing delays.',
    },
  ),
  QUEUE_CONCURRENCY: variable(
    z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be 1-16').max(16, 'must be 1-16').default(1),
    { description: 'Video jobs generated at the same time. Each one runs ffmpeg on the whole machine; raise it only with spare cores.' },
  ),
  QUEUE_BACKEND: variable(z.enum(['embedded', 'bullmq'], { message: 'must be embedded or bullmq' }).default('embedded'), {
    description:
      'Where video jobs run: `embedded` (in the server process, jobs kept in the database) or `bullmq` (a BullMQ queue on REDIS_URL; run the jobs with `npm run worker` processes).',
  }),
  REDIS_URL: variable(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    {
      default: '(none; required by QUEUE_BACKEND=bullmq)',
      description: 'Redis for the BullMQ queue and the job events between worker and API processes (redis:// or rediss://).',
      secret: true,
    },
  ),
  QUEUE_PREFIX: variable(
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'must be 1-40 letters, digits, dots, dashes or underscores')
      .default('reelsmith'),
    { description: 'Redis key prefix of the queue; every process of one deployment uses the same one.' },
  ),
  RAZORPAY_KEY_ID: variable(z.string().trim().min(1).optional(), {
    default: '(unset: built-in TEST MODE checkout)',
    description: 'Razorpay key id (rzp_live_… or rzp_test_…). Set together with RAZORPAY_KEY_SECRET to take real payments.',
  }),
  RAZORPAY_KEY_SECRET: variable(z.string().trim().min(1).optional(), {
    default: '(unset)',
    description: 'Razorpay key secret: authenticates order creation and verifies payment signatures. Never logged.',
    secret: true,
    setWith: 'RAZORPAY_KEY_ID',
  }),
  RAZORPAY_WEBHOOK_SECRET: variable(z.string().trim().min(1).optional(), {
    default: '(unset: webhook answers 503)',
    description: 'Secret of the Razorpay webhook (payment.captured) that POSTs to /payments/webhook.',
    secret: true,
  }),
  RAZORPAY_API_BASE_URL: variable(urlSchema.default('https://api.razorpay.com').transform(withoutTrailingSlash), {
    description: "Razorpay's API host (tests point it at a local fake).",
  }),
  GEO_COUNTRY_HEADER: variable(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
      .transform((name) => name.toLowerCase())
      .optional(),
    {
      default: '(unset: local GeoIP lookup)',
      description: "Request header a trusted proxy sets to the visitor's ISO country code (e.g. CF-IPCountry), used for location pricing.",
    },
  ),
  WEBHOOK_ALLOW_PRIVATE: variable(booleanFlag.default(false), {
    description:
      'true lets webhooks point at loopback, private, link-local and cloud metadata addresses (tests, a local receiver). Refused otherwise.',
  }),
  SOURCE_ALLOW_PRIVATE: variable(booleanFlag.default(false), {
    description:
      'true lets a video\'s source link (`source: {kind: "url"}`) point at loopback, private, link-local and metadata addresses (tests, an intranet). Refused otherwise.',
  }),
  EMBED_ALLOWED_ORIGINS: variable(
    commaList
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
    {
      default: "(none: only this server's own pages)",
      description:
        'Comma-separated origins (https://partner.example) allowed to frame the studio at /embed; sent as its CSP frame-ancestors.',
    },
  ),
  EMBED_DEMO: variable(booleanFlag.default(false), {
    description: 'true serves the embed demo page at /embed/demo (the snippet and a live embed).',
  }),
  GALLERY_EXAMPLES: variable(booleanFlag.default(true), {
    default: 'on',
    description:
      "on: after start the server makes the visitor page's three example videos (one per format, offline generator, one at a time, each in a process of its own at the lowest priority, stopped while any creator's job is queued or running or requests are being answered) once into DATA_DIR/gallery; off: no gallery (test runs, machines without spare CPU).",
  }),
  S3_BUCKET: variable(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lower-case letters, digits, dots or dashes')
      .optional(),
    {
      default: '(unset: files under DATA_DIR)',
      description:
        'S3-compatible bucket for finished videos, posters, uploads and voice samples (AWS S3, Cloudflare R2, MinIO, Backblaze B2). When set, no process needs a shared DATA_DIR.',
    },
  ),
  S3_ENDPOINT: variable(urlSchema.optional(), {
    default: '(unset: AWS S3)',
    description: 'Endpoint URL of an S3-compatible store, e.g. https://<account>.r2.cloudflarestorage.com or http://minio:9000.',
  }),
  S3_REGION: variable(z.string().trim().min(1).default('us-east-1'), {
    description: 'Region of the bucket (`auto` for Cloudflare R2).',
  }),
  S3_ACCESS_KEY_ID: variable(z.string().trim().min(1).optional(), {
    default: '(unset: the AWS SDK default chain)',
    description: 'Access key id; set together with S3_SECRET_ACCESS_KEY.',
  }),
  S3_SECRET_ACCESS_KEY: variable(z.string().trim().min(1).optional(), {
    default: '(unset)',
    description: 'Secret access key. Never logged.',
    secret: true,
    setWith: 'S3_ACCESS_KEY_ID',
  }),
  S3_FORCE_PATH_STYLE: variable(booleanFlag.default(false), {
    description: 'Address the bucket as <endpoint>/<bucket> instead of <bucket>.<endpoint> (MinIO and most self-hosted stores need true).',
  }),
  S3_PROXY: variable(booleanFlag.default(false), {
    description:
      'true: the API streams files from the bucket itself (Range supported); false: it redirects to a presigned URL valid for 5 minutes.',
  }),
  SMTP_URL: variable(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    {
      default: '(unset: links are logged)',
      description:
        'SMTP server for verification and password-reset mail (smtp:// or smtps://, credentials in the URL). Without it and MAIL_FROM the server logs each link instead.',
      secret: true,
    },
  ),
  MAIL_FROM: variable(z.string().trim().min(3).optional(), {
    default: '(unset)',
    description: 'Sender address of account e-mail, e.g. `Reelsmith <no-reply@example.com>`.',
  }),
  PUBLIC_URL: variable(urlSchema.transform(withoutTrailingSlash).optional(), {
    default: 'http://localhost:PORT',
    description: 'The address users open the studio at; e-mailed links point here (never at the Host header of a request).',
  }),
  METRICS_TOKEN: variable(z.string().trim().min(16, 'must be at least 16 characters').optional(), {
    default: '(unset: GET /metrics is open, except on PORT in production)',
    description:
      'When set, GET /metrics (the API, and METRICS_PORT) answers only `Authorization: Bearer <METRICS_TOKEN>`; at least 16 characters. With NODE_ENV=production and no token, the API does not serve /metrics on PORT (use METRICS_PORT).',
    secret: true,
  }),
  METRICS_PORT: variable(port('must be between 1 and 65535').optional(), {
    default: '(unset: a worker serves no metrics)',
    description:
      'A worker process (`npm run worker`) serves GET /metrics and GET /ready on this port; the API serves them here too, besides PORT (for a scraper on an internal network).',
  }),
  SHUTDOWN_GRACE_SECONDS: variable(
    z.coerce.number({ message: 'must be a number' }).min(1, 'must be at least 1').max(600, 'must be at most 600').default(25),
    {
      description:
        'On SIGTERM the server stops taking connections and jobs (GET /ready answers 503) and waits this long for requests and running steps to finish before it hands the rest back to the queue and exits.',
    },
  ),
  YOUTUBE_CLIENT_ID: variable(z.string().trim().min(1).optional(), {
    default: '(unset: YouTube not offered)',
    description:
      'Google OAuth client id (web application) for publishing to YouTube; its redirect URI is PUBLIC_URL/api/connections/youtube/callback.',
  }),
  YOUTUBE_CLIENT_SECRET: variable(z.string().trim().min(1).optional(), {
    default: '(unset)',
    description: 'Secret of that Google OAuth client. Never logged.',
    secret: true,
    setWith: 'YOUTUBE_CLIENT_ID',
  }),
  GOOGLE_OAUTH_AUTHORIZE_URL: variable(urlSchema.default('https://accounts.google.com/o/oauth2/v2/auth'), {
    description: "Google's consent page (tests point it at a local fake).",
  }),
  GOOGLE_OAUTH_TOKEN_URL: variable(urlSchema.default('https://oauth2.googleapis.com/token'), { description: "Google's token endpoint." }),
  GOOGLE_OAUTH_REVOKE_URL: variable(urlSchema.default('https://oauth2.googleapis.com/revoke'), {
    description: "Google's token revocation endpoint.",
  }),
  YOUTUBE_API_URL: variable(urlSchema.default('https://www.googleapis.com').transform(withoutTrailingSlash), {
    description: 'Base of the YouTube Data API v3, for both /upload/youtube/v3/… and /youtube/v3/….',
  }),
  TIKTOK_CLIENT_KEY: variable(z.string().trim().min(1).optional(), {
    default: '(unset: TikTok not offered)',
    description:
      'TikTok app client key (Login Kit and Content Posting API, Direct Post); redirect URI PUBLIC_URL/api/connections/tiktok/callback.',
  }),
  TIKTOK_CLIENT_SECRET: variable(z.string().trim().min(1).optional(), {
    default: '(unset)',
    description: 'TikTok app client secret. Never logged.',
    secret: true,
    setWith: 'TIKTOK_CLIENT_KEY',
  }),
  TIKTOK_AUTH_URL: variable(urlSchema.default('https://www.tiktok.com/v2/auth/authorize/'), {
    description: "TikTok's authorization page.",
  }),
  TIKTOK_API_URL: variable(urlSchema.default('https://open.tiktokapis.com').transform(withoutTrailingSlash), {
    description: "TikTok's Open API (tokens and Content Posting).",
  }),
  TIKTOK_APP_AUDITED: variable(booleanFlag.default(false), {
    description:
      'Whether TikTok has audited this app (Content Posting API). Until it has, TikTok takes only private posts (SELF_ONLY, from a private account): the studio offers Private only.',
  }),
  INSTAGRAM_APP_ID: variable(z.string().trim().min(1).optional(), {
    default: '(unset: Instagram not offered)',
    description:
      'Instagram app id (Instagram API with Instagram Login); redirect URI PUBLIC_URL/api/connections/instagram/callback. Instagram fetches the video from PUBLIC_URL, so it must be reachable from the internet.',
  }),
  INSTAGRAM_APP_SECRET: variable(z.string().trim().min(1).optional(), {
    default: '(unset)',
    description: 'Instagram app secret. Never logged.',
    secret: true,
    setWith: 'INSTAGRAM_APP_ID',
  }),
  INSTAGRAM_AUTH_URL: variable(urlSchema.default('https://www.instagram.com/oauth/authorize'), {
    description: "Instagram's authorization page.",
  }),
  INSTAGRAM_TOKEN_URL: variable(urlSchema.default('https://api.instagram.com/oauth/access_token'), {
    description: "Instagram's code exchange (short-lived token); the long-lived one comes from INSTAGRAM_GRAPH_URL.",
  }),
  INSTAGRAM_GRAPH_URL: variable(urlSchema.default('https://graph.instagram.com').transform(withoutTrailingSlash), {
    description: "Instagram's Graph API host.",
  }),
  PAYMENTS_TEST_CHECKOUT: variable(booleanFlag.default(false), {
    description:
      'With NODE_ENV=production and no Razorpay keys, set true to allow the free TEST MODE checkout on purpose (a warning is logged at start).',
  }),
});

type VariableName = keyof typeof envObjectSchema.shape;
const VARIABLE_SCHEMAS = Object.entries(envObjectSchema.shape) as [VariableName, z.ZodType][];

function docOf(name: string, schema: z.ZodType): VariableDoc {
  const doc = variableDocs.get(schema);
  if (!doc) throw new Error(`config-schema.ts: ${name} is not declared with variable()`);
  return doc;
}

/** The default as an operator would write it in a .env file: the schema's own, or the documented text. */
function defaultText(name: string, schema: z.ZodType, doc: VariableDoc): string {
  if (doc.default !== undefined) return doc.default;
  const parsed = schema.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined)
    throw new Error(`config-schema.ts: ${name} has no default; say what leaving it unset means (variable()'s default)`);
  return Array.isArray(parsed.data) ? parsed.data.join(',') : String(parsed.data);
}

export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

/** Every environment variable the server reads, as docs/configuration.md lists it (`npm run docs:config`). */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = VARIABLE_SCHEMAS.map(([name, schema]) => {
  const doc = docOf(name, schema);
  return { name, default: defaultText(name, schema, doc), description: doc.description };
});

/** The names the schema reads. */
export const CONFIG_VARIABLE_NAMES: readonly string[] = VARIABLE_SCHEMAS.map(([name]) => name);

/** Variables whose values never appear in an error message. */
const SECRET_VARIABLES = new Set<string>(VARIABLE_SCHEMAS.filter(([name, schema]) => docOf(name, schema).secret).map(([name]) => name));

/** Pairs that are set together or not at all: [the one named in the error, its partner]. */
const SET_TOGETHER = VARIABLE_SCHEMAS.flatMap(([name, schema]) => {
  const partner = docOf(name, schema).setWith;
  return partner ? [[name, partner as VariableName] as const] : [];
});

/** The checks between variables, run after each variable's own. */
const envSchema = envObjectSchema.superRefine((vars, ctx) => {
  if (vars.QUEUE_BACKEND === 'bullmq' && !vars.REDIS_URL)
    ctx.addIssue({ code: 'custom', message: 'is required when QUEUE_BACKEND is bullmq', path: ['REDIS_URL'] });
  for (const [name, partner] of SET_TOGETHER)
    if (Boolean(vars[name]) !== Boolean(vars[partner]))
      ctx.addIssue({ code: 'custom', message: `${partner} and ${name} must be set together`, path: [name] });
});

export type EnvVariables = z.output<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** Blank values count as unset, so `PORT=` in a .env file means "use the default". */
function withoutBlanks(env: Env): Record<string, string> {
  const known = new Set(CONFIG_VARIABLE_NAMES);
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (known.has(name) && value !== undefined && value.trim() !== '') result[name] = value;
  }
  return result;
}

/** Validates the environment without touching the disk. */
export function parseEnv(env: Env): EnvVariables {
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
