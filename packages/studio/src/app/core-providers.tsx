// The base theme first, so component stylesheets can refine it.
import '../styles/theme.css';
import type { ReactNode } from 'react';
import { PlatformProvider, type Platform } from '../platform.js';
import { ServicesProvider, type CoreServices } from '../services.js';
import { StudioToaster, type ToastPosition } from '../toaster.js';

/**
 * Platform, services and toasts, without the query cache or the routes: what a host that renders
 * its own small screens needs (the extension popup, whose JavaScript stays under 100 KB gzip).
 */
export function CoreProviders({
  platform,
  services,
  children,
  toastPosition,
}: {
  platform: Platform;
  services: CoreServices;
  children?: ReactNode;
  toastPosition?: ToastPosition;
}) {
  return (
    <PlatformProvider platform={platform}>
      <ServicesProvider services={services}>
        {children}
        <StudioToaster position={toastPosition} />
      </ServicesProvider>
    </PlatformProvider>
  );
}
