import { Navigate, Route, Routes, useLocation } from 'react-router';
import { AdminDashboard } from '../admin/admin-dashboard.js';
import { LoginPage } from '../login/login-page.js';
import { PricingPage, SystemHealthPage, UserManagementPage } from '../pages/section-pages.js';
import { StudioPage } from '../pages/studio-page.js';
import { AppShell } from '../shell/app-shell.js';
import { SettingsPage } from '../settings/settings-page.js';
import { MyVideosPage } from '../videos/my-videos-page.js';
import { StoryboardPage } from '../storyboard/storyboard-page.js';
import { titleForPath, type Viewer } from './route-table.js';

/** Spec section 2's route table as react-router routes (route-table.ts says the same for tests and titles). */
export function AppRoutes({ viewer }: { viewer: Viewer }) {
  const { pathname } = useLocation();
  const shell = <AppShell title={titleForPath(pathname, viewer)} />;

  if (!viewer.signedIn) {
    return (
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route element={shell}>
          <Route path="/pricing" element={<PricingPage />} />
          <Route path="*" element={<StudioPage />} />
        </Route>
      </Routes>
    );
  }

  return (
    <Routes>
      <Route path="/login" element={<Navigate to="/" replace />} />
      <Route element={shell}>
        {['/', '/studio', '/generate'].map((path) => (
          <Route key={path} path={path} element={<StudioPage />} />
        ))}
        <Route path="/videos" element={<MyVideosPage />} />
        <Route path="/files" element={<MyVideosPage />} />
        <Route path="/videos/:id/edit" element={<StoryboardPage />} />
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/pricing" element={<PricingPage />} />
        {viewer.role === 'admin' ? (
          <>
            <Route path="/admin" element={<AdminDashboard />} />
            <Route path="/admin/users" element={<UserManagementPage />} />
            <Route path="/admin/health" element={<SystemHealthPage />} />
          </>
        ) : null}
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
