import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type ReactNode } from 'react';

export interface AdminActionDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Extra inputs (role, plan and days) above the reason. */
  children?: ReactNode;
  busy: boolean;
  /** Danger actions (suspend, delete) get a red confirm button. */
  danger?: boolean;
  onCancel(): void;
  /** Resolves when done; the dialog stays open (with the error shown by the caller's toast) when it throws. */
  onConfirm(reason: string): Promise<void>;
}

export const REASON_MIN_LENGTH = 3;

/** Every admin action asks for confirmation and a reason, which the audit log keeps. */
export function AdminActionDialog({
  open,
  title,
  description,
  confirmLabel,
  children,
  busy,
  danger = false,
  onCancel,
  onConfirm,
}: AdminActionDialogProps) {
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const valid = reason.trim().length >= REASON_MIN_LENGTH;

  const close = () => {
    setReason('');
    setTouched(false);
    onCancel();
  };
  const submit = async () => {
    setTouched(true);
    if (!valid) return;
    try {
      await onConfirm(reason.trim());
      setReason('');
      setTouched(false);
    } catch {
      // The caller reported it; the dialog stays open to try again.
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (!next && !busy ? close() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="rs-dialog__overlay" />
        <Dialog.Content className="rs-dialog rs-admin-action">
          <Dialog.Title className="rs-dialog__title">{title}</Dialog.Title>
          <Dialog.Description className="rs-dialog__description">{description}</Dialog.Description>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            {children}
            <div className={`rs-field${touched && !valid ? ' rs-field--invalid' : ''}`}>
              <label htmlFor={reasonId} className="rs-field__label">
                Reason (kept in the audit log)
              </label>
              <textarea
                id={reasonId}
                className="rs-field__input rs-admin-action__reason"
                value={reason}
                maxLength={500}
                rows={3}
                aria-required
                aria-invalid={touched && !valid}
                onChange={(event) => setReason(event.target.value)}
              />
              {touched && !valid ? (
                <p className="rs-field__error">Give a reason for this action (at least {REASON_MIN_LENGTH} characters).</p>
              ) : null}
            </div>
            <div className="rs-dialog__actions">
              <button type="button" className="rs-button rs-button--ghost" disabled={busy} onClick={close}>
                Cancel
              </button>
              <button type="submit" className={`rs-button ${danger ? 'rs-button--danger' : 'rs-button--primary'}`} disabled={busy}>
                {busy ? 'Working…' : confirmLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
