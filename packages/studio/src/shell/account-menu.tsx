import type { User } from '@reelsmith/contracts';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LogoutIcon, SettingsIcon } from '../ui/icons.js';

/** The avatar's menu in the top bar (loaded on demand by top-bar.tsx). */
export function AccountMenu({
  user,
  initial,
  onSettings,
  onLogout,
  defaultOpen = false,
}: {
  user: User;
  initial: string;
  onSettings(): void;
  onLogout(): void;
  /** Opens at once: the code arrived because the creator clicked the menu's stand-in button. */
  defaultOpen?: boolean;
}) {
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="rs-avatar rs-avatar--button" aria-label="Account menu">
          {initial}
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="rs-menu" align="end" sideOffset={8}>
          <div className="rs-menu__header">
            <span className="rs-menu__name">{user.name}</span>
            <span className="rs-menu__email">{user.email}</span>
          </div>
          <DropdownMenu.Separator className="rs-menu__separator" />
          <DropdownMenu.Item className="rs-menu__item" onSelect={onSettings}>
            <SettingsIcon /> Profile &amp; Settings
          </DropdownMenu.Item>
          <DropdownMenu.Item className="rs-menu__item" onSelect={onLogout}>
            <LogoutIcon /> Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
