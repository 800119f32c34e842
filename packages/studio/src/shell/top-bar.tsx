import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useNavigate } from 'react-router';
import { countActiveJobs, useVideoList } from '../api/video-queries.js';
import { useAuth } from '../services.js';
import { ActivityIcon, BellIcon, LogoutIcon, MenuIcon, SettingsIcon } from './icons.js';

/** Notifications are not built yet; the spec fixes their badge at 0. */
const NOTIFICATION_COUNT = 0;

function SignedInActions() {
  const navigate = useNavigate();
  const user = useAuth((s) => s.user);
  const logout = useAuth((s) => s.logout);
  const { jobs } = useVideoList();
  const activeJobs = countActiveJobs(jobs);
  if (!user) return null;
  const initial = user.name.trim().charAt(0).toUpperCase() || '?';

  return (
    <div className="rs-topbar__actions">
      <span className={`rs-topbar__jobs${activeJobs > 0 ? ' rs-topbar__jobs--busy' : ''}`} aria-label={`Active jobs: ${activeJobs}`} title="Active jobs">
        <ActivityIcon />
        <span className="rs-badge" data-testid="active-jobs-count">{activeJobs}</span>
      </span>
      {/* Named by its content ("Notifications 0"), so the name contains the visible count (WCAG 2.5.3). */}
      <button type="button" className="rs-icon-button">
        <BellIcon />
        <span className="rs-visually-hidden">Notifications</span>{' '}
        <span className="rs-badge rs-badge--corner">{NOTIFICATION_COUNT}</span>
      </button>
      <DropdownMenu.Root>
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
            <DropdownMenu.Item className="rs-menu__item" onSelect={() => navigate('/settings')}>
              <SettingsIcon /> Profile &amp; Settings
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className="rs-menu__item"
              onSelect={() => {
                void logout().then(() => navigate('/'));
              }}
            >
              <LogoutIcon /> Logout
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}

export function TopBar({ title, onOpenNavigation }: { title: string; onOpenNavigation(): void }) {
  const signedIn = useAuth((s) => s.isAuthenticated && s.user !== null);
  return (
    <header className="rs-topbar">
      <button type="button" className="rs-icon-button rs-topbar__menu" aria-label="Open navigation" onClick={onOpenNavigation}>
        <MenuIcon />
      </button>
      <div className="rs-topbar__title">{title}</div>
      {signedIn ? <SignedInActions /> : null}
    </header>
  );
}
