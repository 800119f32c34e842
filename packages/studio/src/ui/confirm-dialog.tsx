import { Suspense, useCallback, useRef, useState, type ReactNode } from 'react';
import { preloadable } from './preloadable.js';
import { useOpenedOnce } from './opened-once.js';
import type { ConfirmDialogProps } from './confirm-dialog-modal.js';

export type { ConfirmDialogProps } from './confirm-dialog-modal.js';

// The modal's code (Radix dialog, focus trap, scroll lock: about 15 KB on the wire) is fetched when a
// question is first asked: the screens that offer a Delete or a Clear failed load without it.
const modal = preloadable<ConfirmDialogProps>(() => import('./confirm-dialog-modal.js').then((m) => m.ConfirmDialogModal));
const ConfirmDialogModal = modal.Component;

/**
 * The product's own yes/no question (never the browser's confirm()): a modal with Cancel and a
 * confirm button. Nothing is rendered (or fetched) until it first opens; it stays mounted after, so
 * closing it animates and gives the focus back like any dialog.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const opened = useOpenedOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialogModal {...props} />
    </Suspense>
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
