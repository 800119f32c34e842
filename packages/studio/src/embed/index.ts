/** What the /embed entry needs, and nothing that pulls in the full app's routes. */
export { EmbedStudio, type EmbedStudioProps } from './embed-studio.js';
export { parseEmbedCommand, startEmbedBridge } from './embed-bridge.js';
export { StudioToaster } from '../toaster.js';
export {
  MemoryStorage,
  PlatformProvider,
  isDesktopChromeBrowser,
  type Platform,
  type FormRequests,
  type PageArticleReader,
} from '../platform.js';
export { ServicesProvider } from '../services.js';
export { createStudioServices } from '../studio-services.js';
