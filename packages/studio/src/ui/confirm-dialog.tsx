import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useRef, useState, type ReactNode } from 'react';

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

/** The product's own yes/no question (never the browser's confirm()): a modal with Cancel and a confirm button. */
export function ConfirmDialog({
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

export interface ConfirmRequest {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  destructive?: boolean;
}

/**
 * An awaitable confirmation: `ask(request)` opens the dialog and resolves true (confirmed) or false
 * (cancelled, closed with Escape or the overlay); render `dialog` once.
 */
export function useConfirm(): { ask: (request: ConfirmRequest) => Promise<boolean>; dialog: ReactNode } {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  const answer = useCallback((value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setRequest(null);
  }, []);
  const ask = useCallback((next: ConfirmRequest) => {
    resolver.current?.(false);
    setRequest(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);
  const dialog = (
    <ConfirmDialog
      open={request !== null}
      title={request?.title ?? ''}
      description={request?.description ?? ''}
      confirmLabel={request?.confirmLabel ?? 'Confirm'}
      destructive={request?.destructive}
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
    />
  );
  return { ask, dialog };
}
