import { Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { countActiveJobs, useVideoList } from '../shared/jobs/video-queries.js';
import { useAuth } from '../services.js';
import { ActivityIcon, BellIcon, MenuIcon } from '../ui/icons.js';
import { preloadable } from '../ui/preloadable.js';

// The menu library (Radix menu, floating-ui, 13 KB) stays out of the first load, signed in too: it is
// fetched when the pointer or focus reaches the avatar, and the menu opens when it arrives after a click.
const accountMenu = preloadable(() => import('./account-menu.js').then((m) => m.AccountMenu));
const AccountMenu = accountMenu.Component;
const preloadAccountMenu = () => void accountMenu.preload().catch(() => undefined);

/** The menu's trigger until it is first used; a click swaps in the real menu, opened. */
function AccountMenuButton({ initial, onOpen }: { initial: string; onOpen?: () => void }) {
  return (
    <button
      type="button"
      className="rs-avatar rs-avatar--button"
      aria-label="Account menu"
      aria-haspopup="menu"
      disabled={!onOpen}
      onPointerEnter={preloadAccountMenu}
      onFocus={preloadAccountMenu}
      onClick={onOpen}
    >
      {initial}
    </button>
  );
}

/** Notifications are not built yet; the spec fixes their badge at 0. */
const NOTIFICATION_COUNT = 0;

function SignedInActions() {
  const navigate = useNavigate();
  const user = useAuth((s) => s.user);
  const logout = useAuth((s) => s.logout);
  const { jobs } = useVideoList();
  const activeJobs = countActiveJobs(jobs);
  const [menuWanted, setMenuWanted] = useState(false);
  if (!user) return null;
  const initial = user.name.trim().charAt(0).toUpperCase() || '?';

  return (
    <div className="rs-topbar__actions">
      <span
        className={`rs-topbar__jobs${activeJobs > 0 ? ' rs-topbar__jobs--busy' : ''}`}
        aria-label={`Active jobs: ${activeJobs}`}
        title="Active jobs"
      >
        <ActivityIcon />
        <span className="rs-badge" data-testid="active-jobs-count">
          {activeJobs}
        </span>
      </span>
      {/* Named by its content ("Notifications 0"), so the name contains the visible count (WCAG 2.5.3). */}
      <button type="button" className="rs-icon-button">
        <BellIcon />
        <span className="rs-visually-hidden">Notifications</span> <span className="rs-badge rs-badge--corner">{NOTIFICATION_COUNT}</span>
      </button>
      {menuWanted ? (
        <Suspense fallback={<AccountMenuButton initial={initial} />}>
          <AccountMenu
            user={user}
            initial={initial}
            defaultOpen
            onSettings={() => navigate('/settings')}
            onLogout={() => void logout().then(() => navigate('/'))}
          />
        </Suspense>
      ) : (
        <AccountMenuButton initial={initial} onOpen={() => setMenuWanted(true)} />
      )}
    </div>
  );
}

export interface TopBarProps {
  title: string;
  onOpenNavigation(): void;
  /** The pointer or focus reached the menu button: a chance to fetch the drawer before the click. */
  onNavigationIntent?(): void;
}

export function TopBar({ title, onOpenNavigation, onNavigationIntent }: TopBarProps) {
  const signedIn = useAuth((s) => s.isAuthenticated && s.user !== null);
  return (
    <header className="rs-topbar">
      <button
        type="button"
        className="rs-icon-button rs-topbar__menu"
        aria-label="Open navigation"
        onClick={onOpenNavigation}
        onPointerEnter={onNavigationIntent}
        onPointerDown={onNavigationIntent}
        onFocus={onNavigationIntent}
      >
        <MenuIcon />
      </button>
      <div className="rs-topbar__title">{title}</div>
      {signedIn ? <SignedInActions /> : null}
    </header>
  );
}
