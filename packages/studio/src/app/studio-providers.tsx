import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { createStudioServices } from '../studio-services.js';
import type { Platform } from '../platform.js';
import type { StudioServices } from '../services.js';
import type { ToastPosition } from '../toaster.js';
import { CoreProviders } from './core-providers.js';

// Apart from studio-app.tsx so that rendering studio parts (tests, hosts) does not bundle the routes.
/** What a host hands the studio: its platform adapters, and (in tests) ready-made services. */
export interface StudioHostProps {
  platform: Platform;
  /** Injected by tests; hosts let the app create its own. */
  services?: StudioServices;
}

/** The studio's providers and its query cache, without the routes. */
export function StudioProviders({
  platform,
  services: injected,
  children,
  toastPosition,
}: StudioHostProps & { children?: React.ReactNode; toastPosition?: ToastPosition }) {
  const services = useMemo(() => injected ?? createStudioServices(platform), [injected, platform]);
  return (
    <CoreProviders platform={platform} services={services} toastPosition={toastPosition}>
      <QueryClientProvider client={services.queryClient}>{children}</QueryClientProvider>
    </CoreProviders>
  );
}
