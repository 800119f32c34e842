import * as Dialog from '@radix-ui/react-dialog';
import { apiUrl, usePlatform } from '../platform.js';
import { useServices } from '../services.js';
import { CONTACT_LINK } from './side-nav.js';

/**
 * Told once, after the server ended the session because an admin suspended the account: why the
 * creator is signed out and where to appeal. Dismissing it forgets the reason.
 */
export function SuspendedNotice() {
  const platform = usePlatform();
  const { authStore } = useServices();
  const dismiss = () => authStore.setState({ signedOutReason: null });
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : dismiss())}>
      <Dialog.Portal>
        <Dialog.Overlay className="rs-dialog__overlay" />
        <Dialog.Content className="rs-dialog">
          <Dialog.Title className="rs-dialog__title">Your account is suspended</Dialog.Title>
          <Dialog.Description asChild>
            <div className="rs-dialog__description">
              <p>
                An administrator suspended this account, so you have been signed out. While it is suspended you cannot sign in or make
                videos.
              </p>
              <p>
                If you think this is a mistake, appeal through{' '}
                <a href={apiUrl(platform, CONTACT_LINK.path)} target="_blank" rel="noopener noreferrer">
                  {CONTACT_LINK.label}
                </a>
                : tell us the e-mail address of the account.
              </p>
            </div>
          </Dialog.Description>
          <div className="rs-dialog__actions">
            <Dialog.Close className="rs-button rs-button--primary">OK</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
