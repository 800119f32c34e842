import { z } from 'zod';
import { humanText } from './text.js';
import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { roleSchema } from './enums.js';
import { VALIDATION_MESSAGES as V } from './messages.js';

/** The "basic e-mail pattern" of spec section 5. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailSchema = z
  .string({ error: V.emailRequired })
  .trim()
  .min(1, V.emailRequired)
  .max(254, 'Email must be at most 254 characters')
  .regex(EMAIL_PATTERN, V.emailInvalid);

export const loginBodySchema = z.object({
  email: emailSchema,
  password: z.string({ error: V.passwordRequired }).min(1, V.passwordRequired).max(1024),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const nameSchema = humanText(
  z
    .string({ error: V.nameRequired })
    .trim()
    .min(1, V.nameRequired)
    .min(NAME_MIN_LENGTH, V.nameTooShort)
    .max(100, 'Name must be at most 100 characters'),
  'Name',
);

export const newPasswordSchema = z
  .string({ error: V.passwordRequired })
  .min(1, V.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, V.passwordTooShort)
  .max(1024, 'Password must be at most 1024 characters');

/** What the server accepts. confirmPassword is a client-only field and is never sent. */
export const registerBodySchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** The sign-up form, as validated in the browser. */
export const registerFormSchema = registerBodySchema
  .extend({
    confirmPassword: z.string().min(1, V.confirmPasswordRequired),
  })
  .refine((form) => form.confirmPassword === '' || form.password === form.confirmPassword, {
    message: V.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const googleBodySchema = z.object({ credential: z.string().min(1, 'credential is required') });
export type GoogleBody = z.infer<typeof googleBodySchema>;

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.string().optional(),
  /** False until the address is proven by an e-mailed link (or Google). */
  emailVerified: z.boolean().optional(),
  /** A new address waiting for its confirmation link; the account keeps `email` until then. */
  pendingEmail: z.string().nullable().optional(),
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
 * One key in GET /auth/api-keys: name, prefix and last use, never a secret made by POST /auth/api-keys.
 * `key` is present on the account's own studio key only (the spec's "first item's key", which the
 * web studio and extension read after sign-in); it is listed first.
 */
export const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  key: z.string().optional(),
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
  currentPassword: z.string().min(1).max(1024).optional(),
  newPassword: newPasswordSchema.optional(),
});
export type ProfileUpdateBody = z.infer<typeof profileUpdateBodySchema>;

export const usageResponseSchema = z.object({
  videosThisMonth: z.number().int(),
  videosTotal: z.number().int(),
  activeJobs: z.number().int(),
  periodStart: z.string(),
});
export type UsageResponse = z.infer<typeof usageResponseSchema>;

export const logoutResponseSchema = z.object({ success: z.literal(true) });

export const authConfigResponseSchema = z.object({
  googleClientId: z.string().nullable(),
});
export type AuthConfigResponse = z.infer<typeof authConfigResponseSchema>;
