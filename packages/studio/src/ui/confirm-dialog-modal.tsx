import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The question's details; a string or richer content (e.g. a price breakdown). */
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Red confirm button for something that cannot be undone. */
  destructive?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}

/** The confirmation's modal (Radix dialog), loaded by confirm-dialog.tsx when a question is first asked. */
export function ConfirmDialogModal({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive,
  busy,
  onConfirm,
  onCancel,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (!next && !busy ? onCancel() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="rs-dialog__overlay rs-dialog__overlay--top" />
        <Dialog.Content className="rs-dialog rs-confirm-dialog">
          <Dialog.Title className="rs-dialog__title">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="rs-dialog__description">{description}</div>
          </Dialog.Description>
          {children}
          <div className="rs-dialog__actions">
            <button type="button" className="rs-button rs-button--ghost" disabled={busy} onClick={onCancel}>
              {cancelLabel}
            </button>
            <button
              type="button"
              className={`rs-button ${destructive ? 'rs-button--danger' : 'rs-button--primary'}`}
              disabled={busy}
              onClick={onConfirm}
            >
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
