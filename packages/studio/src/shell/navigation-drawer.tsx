import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from '../ui/icons.js';
import { SideNav } from './side-nav.js';

/** The narrow screens' slide-out navigation, opened from the top bar. */
export function NavigationDrawer({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="rs-drawer__overlay" />
        <Dialog.Content className="rs-drawer" aria-describedby={undefined}>
          <Dialog.Title className="rs-visually-hidden">Navigation</Dialog.Title>
          <Dialog.Close className="rs-icon-button rs-drawer__close" aria-label="Close navigation">
            <CloseIcon />
          </Dialog.Close>
          <SideNav />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
