import { Navigate, Route, Routes, useLocation } from 'react-router';
import { StudioPage } from '../pages/studio-page.js';
import { AppShell } from '../shell/app-shell.js';
import { PreloadRouteProvider } from '../routes/route-preload.js';
import { titleForPath, type Viewer } from '../routes/route-table.js';
import { LazyRoute, preloadRoute } from './lazy-routes.js';

/** The product's route table as react-router routes (route-table.ts says the same for tests and titles). */
export function AppRoutes({ viewer }: { viewer: Viewer }) {
  const { pathname } = useLocation();
  const shell = (
    <PreloadRouteProvider value={preloadRoute}>
      <AppShell title={titleForPath(pathname, viewer)} />
    </PreloadRouteProvider>
  );

  if (!viewer.signedIn) {
    return (
      <Routes>
        <Route path="/login" element={<LazyRoute page="login" />} />
        <Route path="/verify-email" element={<LazyRoute page="verifyEmail" />} />
        <Route path="/reset-password" element={<LazyRoute page="resetPassword" />} />
        <Route element={shell}>
          <Route path="/pricing" element={<LazyRoute page="pricing" />} />
          <Route path="*" element={<StudioPage />} />
        </Route>
      </Routes>
    );
  }

  return (
    <Routes>
      <Route path="/login" element={<Navigate to="/" replace />} />
      {/* E-mailed links work whether or not this browser is signed in. */}
      <Route path="/verify-email" element={<LazyRoute page="verifyEmail" />} />
      <Route path="/reset-password" element={<LazyRoute page="resetPassword" />} />
      <Route element={shell}>
        {['/', '/studio', '/generate'].map((path) => (
          <Route key={path} path={path} element={<StudioPage />} />
        ))}
        <Route path="/videos" element={<LazyRoute page="videos" />} />
        <Route path="/files" element={<LazyRoute page="videos" />} />
        <Route path="/batch" element={<LazyRoute page="batch" />} />
        <Route path="/videos/:id/edit" element={<LazyRoute page="storyboard" />} />
        <Route path="/settings" element={<LazyRoute page="settings" />} />
        <Route path="/pricing" element={<LazyRoute page="pricing" />} />
        {viewer.role === 'admin' ? (
          <>
            <Route path="/admin" element={<LazyRoute page="admin" />} />
            <Route path="/admin/users" element={<LazyRoute page="adminUsers" />} />
            <Route path="/admin/health" element={<LazyRoute page="adminHealth" />} />
            <Route path="/admin/audit" element={<LazyRoute page="adminAudit" />} />
          </>
        ) : null}
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
