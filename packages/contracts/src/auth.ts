import { z } from './zod.js';
import { humanText } from './text.js';
import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { roleSchema } from './enums.js';
import { VALIDATION_MESSAGES as V } from './messages.js';

/** A basic e-mail pattern: something, @, something, a dot, something; no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailSchema = z
  .string({ error: V.emailRequired })
  .check(
    z.trim(),
    z.minLength(1, V.emailRequired),
    z.maxLength(254, 'Email must be at most 254 characters'),
    z.regex(EMAIL_PATTERN, V.emailInvalid),
  );

export const loginBodySchema = z.object({
  email: emailSchema,
  password: z.string({ error: V.passwordRequired }).check(z.minLength(1, V.passwordRequired), z.maxLength(1024)),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const nameSchema = humanText(
  z
    .string({ error: V.nameRequired })
    .check(
      z.trim(),
      z.minLength(1, V.nameRequired),
      z.minLength(NAME_MIN_LENGTH, V.nameTooShort),
      z.maxLength(100, 'Name must be at most 100 characters'),
    ),
  'Name',
);

export const newPasswordSchema = z
  .string({ error: V.passwordRequired })
  .check(
    z.minLength(1, V.passwordRequired),
    z.minLength(PASSWORD_MIN_LENGTH, V.passwordTooShort),
    z.maxLength(1024, 'Password must be at most 1024 characters'),
  );

/** What the server accepts. confirmPassword is a client-only field and is never sent. */
export const registerBodySchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** The sign-up form, as validated in the browser. */
export const registerFormSchema = z
  .extend(registerBodySchema, {
    confirmPassword: z.string().check(z.minLength(1, V.confirmPasswordRequired)),
  })
  .check(
    z.refine((form) => form.confirmPassword === '' || form.password === form.confirmPassword, {
      message: V.passwordsDoNotMatch,
      path: ['confirmPassword'],
    }),
  );
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const googleBodySchema = z.object({ credential: z.string().check(z.minLength(1, 'credential is required')) });
export type GoogleBody = z.infer<typeof googleBodySchema>;

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.optional(z.string()),
  /** False until the address is proven by an e-mailed link (or Google). */
  emailVerified: z.optional(z.boolean()),
  /** A new address waiting for its confirmation link; the account keeps `email` until then. */
  pendingEmail: z.optional(z.nullable(z.string())),
});
export type User = z.infer<typeof userSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  created_at: z.string(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const loginResponseSchema = z.object({ user: userSchema, token: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const registerResponseSchema = z.object({
  user: userSchema,
  token: z.string(),
  api_key: apiKeySchema,
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const googleAuthResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  api_key: apiKeySchema,
  session_id: z.string(),
  message: z.string(),
});
export type GoogleAuthResponse = z.infer<typeof googleAuthResponseSchema>;

/**
 * One key in GET /auth/api-keys: name, prefix and last use, never a secret. A key's secret is shown
 * once, when it is made (sign-up and Google sign-in for the account's studio key, POST
 * /auth/api-keys for the others). `studio` marks the studio key, listed first. `key` is never sent
 * by this server; it stays optional so clients written for the spec's "first item's key" still parse.
 */
export const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
  studio: z.optional(z.boolean()),
  key: z.optional(z.string()),
});
export type ApiKeySummary = z.infer<typeof apiKeySummarySchema>;

export const apiKeysResponseSchema = z.object({ api_keys: z.array(apiKeySummarySchema) });
export type ApiKeysResponse = z.infer<typeof apiKeysResponseSchema>;

export const profileResponseSchema = z.object({ user: userSchema });
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

export const profileUpdateBodySchema = z.object({
  name: nameSchema,
  email: emailSchema,
  /** Changing the password needs the current one; every other session is then revoked. */
  currentPassword: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
  newPassword: z.optional(newPasswordSchema),
  /** With a new password: keep the account's API keys working (by default a password change revokes them). */
  keepApiKeys: z.optional(z.boolean()),
});
export type ProfileUpdateBody = z.infer<typeof profileUpdateBodySchema>;

export const usageResponseSchema = z.object({
  videosThisMonth: z.number().check(z.int()),
  videosTotal: z.number().check(z.int()),
  activeJobs: z.number().check(z.int()),
  periodStart: z.string(),
});
export type UsageResponse = z.infer<typeof usageResponseSchema>;

export const logoutResponseSchema = z.object({ success: z.literal(true) });

export const authConfigResponseSchema = z.object({
  googleClientId: z.nullable(z.string()),
});
export type AuthConfigResponse = z.infer<typeof authConfigResponseSchema>;
