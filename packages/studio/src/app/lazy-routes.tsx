import { Suspense, type ComponentType } from 'react';
import { preloadable } from '../ui/preloadable.js';

/**
 * Pages that load on demand, so a phone gets the first page sooner: the first load carries the shell and the studio form only.
 * Each page keeps one loader so a prefetch (hover, focus, a direct visit) and the render share
 * one request.
 */
const lazyPage = (load: () => Promise<ComponentType>) => preloadable<object>(load);

export const LAZY_PAGES = {
  login: lazyPage(() => import('../login/login-page.js').then((m) => m.LoginPage)),
  verifyEmail: lazyPage(() => import('../login/account-recovery.js').then((m) => m.VerifyEmailPage)),
  resetPassword: lazyPage(() => import('../login/account-recovery.js').then((m) => m.ResetPasswordPage)),
  videos: lazyPage(() => import('../videos/my-videos-page.js').then((m) => m.MyVideosPage)),
  batch: lazyPage(() => import('../batch/batch-page.js').then((m) => m.BatchPage)),
  storyboard: lazyPage(() => import('../storyboard/storyboard-page.js').then((m) => m.StoryboardPage)),
  settings: lazyPage(() => import('../settings/settings-page.js').then((m) => m.SettingsPage)),
  pricing: lazyPage(() => import('../billing/pricing-page.js').then((m) => m.PricingPage)),
  admin: lazyPage(() => import('../admin/admin-dashboard.js').then((m) => m.AdminDashboard)),
  adminUsers: lazyPage(() => import('../admin/user-management-page.js').then((m) => m.UserManagementPage)),
  adminHealth: lazyPage(() => import('../admin/system-health-page.js').then((m) => m.SystemHealthPage)),
  adminAudit: lazyPage(() => import('../admin/audit-log-page.js').then((m) => m.AuditLogPage)),
} as const;

export type LazyPageName = keyof typeof LAZY_PAGES;

const PAGE_FOR_PATH: Record<string, LazyPageName> = {
  '/login': 'login',
  '/verify-email': 'verifyEmail',
  '/reset-password': 'resetPassword',
  '/videos': 'videos',
  '/files': 'videos',
  '/batch': 'batch',
  '/settings': 'settings',
  '/pricing': 'pricing',
  '/admin': 'admin',
  '/admin/users': 'adminUsers',
  '/admin/health': 'adminHealth',
  '/admin/audit': 'adminAudit',
};

/** Starts loading the page a path shows (a link's hover or focus, or the path of a direct visit). */
export function preloadRoute(path: string): void {
  const clean = path.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/';
  const name = /^\/videos\/[^/]+\/edit$/.test(clean) ? 'storyboard' : PAGE_FOR_PATH[clean];
  if (name) LAZY_PAGES[name].preload().catch(() => undefined);
}

/**
 * A lazily loaded page. Router navigations run in a transition, so the page on screen stays until
 * the next one is ready (no loading flash); a direct visit fetches its page during the splash
 * (preloadRoute), and the empty fallback shows only if the page is still not there after it.
 */
export function LazyRoute({ page }: { page: LazyPageName }) {
  const { Component } = LAZY_PAGES[page];
  return (
    <Suspense fallback={<div className="rs-page" aria-busy="true" />}>
      <Component />
    </Suspense>
  );
}
