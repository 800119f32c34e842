// The base theme first, so component stylesheets can refine it.
import '../styles/theme.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { PlatformProvider } from '../platform.js';
import { createStudioServices, ServicesProvider } from '../services.js';
import { StudioToaster, type ToastPosition } from '../toaster.js';
import type { StudioAppProps } from './studio-app.js';

// Apart from studio-app.tsx so a host that renders its own screens (the popup) does not bundle the routes.
/** Providers without the routes, for hosts that render their own screens (the extension popup). */
export function StudioProviders({
  platform,
  services: injected,
  children,
  toastPosition,
}: StudioAppProps & { children?: React.ReactNode; toastPosition?: ToastPosition }) {
  const services = useMemo(() => injected ?? createStudioServices(platform), [injected, platform]);
  return (
    <PlatformProvider platform={platform}>
      <ServicesProvider services={services}>
        <QueryClientProvider client={services.queryClient}>
          {children}
          <StudioToaster position={toastPosition} />
        </QueryClientProvider>
      </ServicesProvider>
    </PlatformProvider>
  );
}
