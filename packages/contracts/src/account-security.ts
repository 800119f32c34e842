import { z } from './zod.js';
import { emailSchema, newPasswordSchema } from './auth.js';

/** The texts of e-mail verification and password reset, shared by the server and the studio. */
export const ACCOUNT_MESSAGES = {
  verificationSent: (email: string) => `We sent a verification link to ${email}. Open it to confirm your address.`,
  emailChangePending: (email: string) =>
    `Confirm your new address from the link we sent to ${email}. Until then your account keeps its current e-mail.`,
  emailVerified: 'Your e-mail address is verified.',
  verifyLinkInvalid: 'This verification link is invalid, used or expired. Sign in and ask for a new one.',
  resetRequested: 'If an account uses this e-mail, we sent it a link to reset the password. The link works once, for 30 minutes.',
  resetLinkInvalid: 'This password reset link is invalid, used or expired. Ask for a new one.',
  passwordReset: 'Your password was reset. Every session was signed out and every API key revoked; sign in with the new password.',
  passwordResetKeysKept: 'Your password was reset. Every session was signed out (your API keys still work); sign in with the new password.',
  alreadyVerified: 'Your e-mail address is already verified.',
} as const;

export const emailTokenSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(20, 'The link is incomplete'),
    z.maxLength(200, 'The link is too long'),
    z.regex(/^[A-Za-z0-9_-]+$/, 'The link is malformed'),
  );

export const verifyEmailBodySchema = z.object({ token: emailTokenSchema });
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

export const resetPasswordBodySchema = z.object({
  token: emailTokenSchema,
  password: newPasswordSchema,
  /**
   * Keep the account's API keys working. Off by default: a reset revokes every key, since whoever
   * needed the reset may not be the only one who knew the old password.
   */
  keepApiKeys: z._default(z.boolean(), false),
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const accountMessageResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type AccountMessageResponse = z.infer<typeof accountMessageResponseSchema>;
