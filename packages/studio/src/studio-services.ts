import type { Platform } from './platform.js';
import { createQueryClient } from './query-client.js';
import { createCoreServices, type CoreServiceOptions, type StudioServices } from './services.js';

// Apart from services.ts, so that a host on the core services alone (the popup) never imports the query cache.
export function createStudioServices(platform: Platform, options: CoreServiceOptions = {}): StudioServices {
  return { ...createCoreServices(platform, options), queryClient: createQueryClient() };
}
