import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { createStudioServices } from '../studio-services.js';
import type { ToastPosition } from '../toaster.js';
import { CoreProviders } from './core-providers.js';
import type { StudioAppProps } from './studio-app.js';

// Apart from studio-app.tsx so that rendering studio parts (tests, hosts) does not bundle the routes.
/** The studio's providers and its query cache, without the routes. */
export function StudioProviders({
  platform,
  services: injected,
  children,
  toastPosition,
}: StudioAppProps & { children?: React.ReactNode; toastPosition?: ToastPosition }) {
  const services = useMemo(() => injected ?? createStudioServices(platform), [injected, platform]);
  return (
    <CoreProviders platform={platform} services={services} toastPosition={toastPosition}>
      <QueryClientProvider client={services.queryClient}>{children}</QueryClientProvider>
    </CoreProviders>
  );
}
