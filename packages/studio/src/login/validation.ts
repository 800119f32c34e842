import { loginBodySchema, registerFormSchema, VALIDATION_MESSAGES, type LoginBody, type RegisterForm } from '@reelsmith/contracts';
import type { $ZodError } from 'zod/v4/core';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export type ValidationResult<T, K extends string> = { ok: true; data: T } | { ok: false; errors: FieldErrors<K> };

/** The first message per field, in the schema's rule order (required before format). */
function firstErrors<K extends string>(error: $ZodError): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field as K] = issue.message;
  }
  return errors;
}

export type SignInValues = { email: string; password: string };
export type SignUpValues = { name: string; email: string; password: string; confirmPassword: string };

export function validateSignIn(values: SignInValues): ValidationResult<LoginBody, keyof SignInValues> {
  const parsed = loginBodySchema.safeParse(values);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, errors: firstErrors(parsed.error) };
}

export function validateSignUp(values: SignUpValues): ValidationResult<RegisterForm, keyof SignUpValues> {
  const parsed = registerFormSchema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors = firstErrors<keyof SignUpValues>(parsed.error);
  // The schema's cross-field check only runs once every field is valid; show a mismatch alongside other errors too.
  if (!errors.confirmPassword && values.confirmPassword !== '' && values.password !== values.confirmPassword) {
    errors.confirmPassword = VALIDATION_MESSAGES.passwordsDoNotMatch;
  }
  return { ok: false, errors };
}
