import type { ComponentType, SVGProps } from 'react';
import { Link, useLocation } from 'react-router';
import { apiUrl, usePlatform } from '../platform.js';
import { usePreloadRoute } from '../routes/route-preload.js';
import { useAnalytics, useAuth } from '../services.js';
import {
  BatchIcon,
  DashboardIcon,
  ExternalIcon,
  HealthIcon,
  LogoMark,
  PricingIcon,
  SettingsIcon,
  StudioIcon,
  UsersIcon,
  VideosIcon,
} from '../ui/icons.js';

interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Other paths on which this entry shows as current. */
  alsoActiveOn?: string[];
}

const STUDIO: NavItem = { to: '/', label: 'Studio', icon: StudioIcon, alsoActiveOn: ['/studio', '/generate'] };
const PRICING: NavItem = { to: '/pricing', label: 'Pricing', icon: PricingIcon };

export const SIGNED_IN_MENU: NavItem[] = [
  STUDIO,
  { to: '/videos', label: 'My Videos', icon: VideosIcon, alsoActiveOn: ['/files'] },
  { to: '/batch', label: 'Batch', icon: BatchIcon },
  PRICING,
  { to: '/settings', label: 'Settings', icon: SettingsIcon },
];
export const SIGNED_OUT_MENU: NavItem[] = [STUDIO, PRICING];
export const ADMIN_MENU: NavItem[] = [
  { to: '/admin', label: 'Admin Dashboard', icon: DashboardIcon },
  { to: '/admin/users', label: 'User Management', icon: UsersIcon, alsoActiveOn: ['/admin/audit'] },
  { to: '/admin/health', label: 'System Health', icon: HealthIcon },
];

export const CONTACT_LINK = { path: '/contact.html', label: 'Contact Us' } as const;

export const LEGAL_LINKS = [
  { path: '/policies/terms-conditions.html', label: 'Terms & Conditions' },
  { path: '/policies/privacy-policy.html', label: 'Privacy Policy' },
  { path: '/policies/pricing-policy.html', label: 'Pricing Policy' },
  CONTACT_LINK,
] as const;

function NavList({ items, label }: { items: NavItem[]; label: string }) {
  const { pathname } = useLocation();
  const preloadRoute = usePreloadRoute();
  return (
    <ul className="rs-nav__list" aria-label={label}>
      {items.map((item) => {
        const active = pathname === item.to || (item.alsoActiveOn?.includes(pathname) ?? false);
        const Icon = item.icon;
        return (
          <li key={item.to}>
            <Link
              to={item.to}
              onPointerEnter={() => preloadRoute(item.to)}
              onFocus={() => preloadRoute(item.to)}
              className={`rs-nav__link${active ? ' rs-nav__link--active' : ''}`}
              aria-current={active ? 'page' : undefined}
            >
              <Icon />
              <span>{item.label}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The navigation drawn in the permanent sidebar and in the narrow-screen drawer alike. */
export function SideNav() {
  const preloadRoute = usePreloadRoute();
  const platform = usePlatform();
  const analytics = useAnalytics();
  const { pathname } = useLocation();
  const user = useAuth((s) => s.user);
  const signedIn = useAuth((s) => s.isAuthenticated) && user !== null;

  return (
    <div className="rs-nav">
      <Link to="/" className="rs-nav__brand">
        <LogoMark size={38} />
        <span className="rs-nav__brand-text">
          <span className="rs-nav__brand-name">Reelsmith</span>
          <span className="rs-nav__tagline">AI Video Platform</span>
        </span>
      </Link>

      <nav className="rs-nav__sections" aria-label="Main">
        <NavList items={signedIn ? SIGNED_IN_MENU : SIGNED_OUT_MENU} label="Menu" />
        {signedIn && user.role === 'admin' ? (
          <>
            <p className="rs-nav__heading">Admin</p>
            <NavList items={ADMIN_MENU} label="Admin" />
          </>
        ) : null}
      </nav>

      {!signedIn ? (
        <div className="rs-nav__visitor">
          <Link
            to="/login"
            onPointerEnter={() => preloadRoute('/login')}
            onFocus={() => preloadRoute('/login')}
            className="rs-button rs-button--ghost rs-button--block"
            onClick={() => analytics.click('sidebar_sign_in', pathname)}
          >
            Sign In
          </Link>
          <Link
            to="/login"
            onPointerEnter={() => preloadRoute('/login')}
            onFocus={() => preloadRoute('/login')}
            className="rs-button rs-button--primary rs-button--block"
            onClick={() => analytics.click('sidebar_sign_up_free', pathname)}
          >
            Sign Up Free
          </Link>
          <p className="rs-nav__free-note">One free video included with signup. No credit card required.</p>
        </div>
      ) : null}

      <div className="rs-nav__footer">
        {signedIn ? (
          <div className="rs-nav__user">
            <span className="rs-avatar" aria-hidden="true">
              {user.name.trim().charAt(0).toUpperCase() || '?'}
            </span>
            <span className="rs-nav__user-text">
              <span className="rs-nav__user-name">{user.name}</span>
              <span className="rs-nav__user-email">{user.email}</span>
            </span>
          </div>
        ) : null}
        <ul className="rs-nav__legal" aria-label="Legal">
          {LEGAL_LINKS.map((link) => (
            <li key={link.path}>
              <a href={apiUrl(platform, link.path)} target="_blank" rel="noopener noreferrer">
                {link.label}
                <ExternalIcon />
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
