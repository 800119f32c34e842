import { MESSAGES, type User } from '@reelsmith/contracts';
import { useRef, type ReactNode } from 'react';
import { toast } from '../toaster.js';
import { errorMessage } from '../api/api-client.js';
import { useAnalytics, useAuth } from '../services.js';
import { PasswordField, TextField } from '../ui/form-fields.js';
import { AuthFormFrame } from './auth-form-frame.js';
import { useAuthForm } from './use-auth-form.js';
import { validateSignIn, type SignInValues } from './validation.js';

export interface SignInFormProps {
  initialEmail?: string;
  onSignedIn(user: User): void;
  /** Shown above the form (the Google button and divider on the login screen). */
  header?: ReactNode;
  /** Shown under the submit button (the link to the sign-up tab). */
  footer?: ReactNode;
}

/** The e-mail sign-in form, shared by the login screen and the extension popup. */
export function SignInForm({ initialEmail = '', onSignedIn, header, footer }: SignInFormProps) {
  const login = useAuth((s) => s.login);
  const analytics = useAnalytics();
  // The failure toast of an earlier attempt would otherwise outlive the successful sign-in.
  const failureToastId = useRef<string | null>(null);
  const { submitting, failure, submit, field } = useAuthForm({
    initial: { email: initialEmail, password: '' } satisfies SignInValues,
    validate: validateSignIn,
    send: async (body) => {
      const user = await login(body);
      if (failureToastId.current) toast.dismiss(failureToastId.current);
      analytics.track({ type: 'login', method: 'email' });
      onSignedIn(user);
    },
    failureMessage: (error) => {
      const message = errorMessage(error, MESSAGES.loginFailed);
      failureToastId.current = toast.error(message);
      return message;
    },
  });

  return (
    <AuthFormFrame
      label="Sign in form"
      failure={failure}
      header={header}
      footer={footer}
      submitting={submitting}
      submitText="Sign In"
      busyText="Signing in…"
      onSubmit={submit}
    >
      <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
      <PasswordField label="Password" autoComplete="current-password" {...field('password')} />
    </AuthFormFrame>
  );
}
