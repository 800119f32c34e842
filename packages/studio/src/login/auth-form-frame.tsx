import type { FormEvent, ReactNode } from 'react';
import { FormAlert } from '../ui/form-fields.js';

export interface AuthFormFrameProps {
  /** The form's accessible name. */
  label: string;
  failure: string | null;
  header?: ReactNode;
  footer?: ReactNode;
  submitting: boolean;
  submitText: string;
  /** The button's text while the request runs. */
  busyText: string;
  onSubmit(event: FormEvent): Promise<void>;
  children: ReactNode;
}

/** What the sign-in and sign-up forms share around their fields: the server's refusal, header, submit button and footer. */
export function AuthFormFrame({
  label,
  failure,
  header,
  footer,
  submitting,
  submitText,
  busyText,
  onSubmit,
  children,
}: AuthFormFrameProps) {
  return (
    <div className="rs-auth-form">
      <FormAlert message={failure} />
      {header}
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={label}>
        {children}
        <button type="submit" className="rs-button rs-button--primary rs-button--block" disabled={submitting}>
          {submitting ? busyText : submitText}
        </button>
      </form>
      {footer}
    </div>
  );
}
