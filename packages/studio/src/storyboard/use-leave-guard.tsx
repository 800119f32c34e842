import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePlatform } from '../platform.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';

/** The in-app link a click is about to follow, or null (a new tab, a download, another site, a plain click elsewhere). */
function inAppLink(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!anchor || (anchor.getAttribute('target') ?? '_self') !== '_self' || anchor.hasAttribute('download')) return null;
  const href = anchor.getAttribute('href') ?? '';
  return href.startsWith('/') && !href.startsWith('//') ? href : null;
}

/**
 * While `active` (changes the server does not have yet), asks before the creator leaves: the
 * browser's own question when the page closes or reloads (through the host's `guardUnload`), and
 * the product's dialog before an in-app link is followed.
 */
export function useLeaveGuard(active: boolean) {
  const platform = usePlatform();
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => (active ? platform.navigation.guardUnload?.() : undefined), [active, platform]);

  useEffect(() => {
    if (!active) return;
    // Captured at the document, before the router's own link handler sees the click.
    const onClick = (event: MouseEvent) => {
      const href = inAppLink(event);
      if (!href) return;
      event.preventDefault();
      event.stopPropagation();
      setPending(href);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [active]);

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      title="Leave with unsaved changes?"
      description="Your latest changes are not saved yet. They stay on this device and come back when you open this storyboard again."
      confirmLabel="Leave"
      cancelLabel="Stay"
      onCancel={() => setPending(null)}
      onConfirm={() => {
        const href = pending;
        setPending(null);
        if (href) void navigate(href);
      }}
    />
  );
  return { dialog };
}
