import { MESSAGES } from '@reelsmith/contracts';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/api-client.js';
import { useAuth } from '../services.js';
import { PasswordField, TextField } from '../ui/form-fields.js';
import { AuthFormFrame } from './auth-form-frame.js';
import { useAuthForm } from './use-auth-form.js';
import { validateSignUp, type SignUpValues } from './validation.js';

export interface SignUpFormProps {
  /** Called with the registered e-mail; the account is created but not signed in. */
  onRegistered(email: string): void;
  header?: ReactNode;
  footer?: ReactNode;
}

const empty: SignUpValues = { name: '', email: '', password: '', confirmPassword: '' };

export function SignUpForm({ onRegistered, header, footer }: SignUpFormProps) {
  const register = useAuth((s) => s.register);
  const { submitting, failure, submit, field } = useAuthForm({
    initial: empty,
    validate: validateSignUp,
    send: async ({ name, email, password }) => {
      // confirmPassword is a client-only field: register() sends name, e-mail and password.
      await register({ name, email, password });
      onRegistered(email);
    },
    failureMessage: (error) => errorMessage(error, MESSAGES.registrationFailed),
  });

  return (
    <AuthFormFrame
      label="Create an account"
      failure={failure}
      header={header}
      footer={footer}
      submitting={submitting}
      submitText="Create Account"
      busyText="Creating account…"
      onSubmit={submit}
    >
      <TextField label="Full Name" autoComplete="name" {...field('name')} />
      <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
      <PasswordField label="Password" autoComplete="new-password" {...field('password')} />
      <PasswordField label="Confirm Password" autoComplete="new-password" {...field('confirmPassword')} />
    </AuthFormFrame>
  );
}
