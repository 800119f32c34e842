import type { Role } from '@reelsmith/contracts';

/** The screens of the product's route table. */
export type Screen =
  | 'login'
  | 'studio'
  | 'videos'
  | 'batch'
  | 'storyboard'
  | 'settings'
  | 'pricing'
  | 'adminDashboard'
  | 'userManagement'
  | 'systemHealth'
  | 'auditLog';

export const SCREEN_TITLES: Record<Screen, string> = {
  login: 'Login',
  studio: 'Video Studio',
  videos: 'My Videos',
  batch: 'Batch',
  storyboard: 'Storyboard',
  settings: 'Settings',
  pricing: 'Pricing',
  adminDashboard: 'Admin Dashboard',
  userManagement: 'User Management',
  systemHealth: 'System Health',
  auditLog: 'Audit Log',
};

export type Viewer = { signedIn: false } | { signedIn: true; role: Role };

export type RouteDecision = { screen: Screen } | { redirect: string };

const SIGNED_IN_PATHS: Record<string, Screen> = {
  '/': 'studio',
  '/studio': 'studio',
  '/generate': 'studio',
  '/videos': 'videos',
  '/files': 'videos',
  '/batch': 'batch',
  '/settings': 'settings',
  '/pricing': 'pricing',
};

const ADMIN_PATHS: Record<string, Screen> = {
  '/admin': 'adminDashboard',
  '/admin/users': 'userManagement',
  '/admin/health': 'systemHealth',
  '/admin/audit': 'auditLog',
};

/** A video's storyboard: /videos/<id>/edit. */
const STORYBOARD_PATH = /^\/videos\/[^/]+\/edit$/;

/** Where a video's storyboard opens. */
export const storyboardPath = (videoId: string): string => `/videos/${encodeURIComponent(videoId)}/edit`;

function normalise(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Which screen a path shows, or where it redirects, for the current viewer. */
export function resolveRoute(path: string, viewer: Viewer): RouteDecision {
  const p = normalise(path);
  if (!viewer.signedIn) {
    if (p === '/login') return { screen: 'login' };
    if (p === '/pricing') return { screen: 'pricing' };
    return { screen: 'studio' };
  }
  if (STORYBOARD_PATH.test(p)) return { screen: 'storyboard' };
  const screen = SIGNED_IN_PATHS[p] ?? (viewer.role === 'admin' ? ADMIN_PATHS[p] : undefined);
  return screen ? { screen } : { redirect: '/' };
}

/** The page title of a path as the current viewer sees it. */
export function titleForPath(path: string, viewer: Viewer): string {
  const decision = resolveRoute(path, viewer);
  return 'screen' in decision ? SCREEN_TITLES[decision.screen] : SCREEN_TITLES.studio;
}
