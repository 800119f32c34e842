export { StudioApp, type StudioAppProps } from './app/studio-app.js';
export { StudioProviders } from './app/studio-providers.js';
export { resolveRoute, titleForPath, SCREEN_TITLES, type Screen, type Viewer } from './routes/route-table.js';
export {
  PlatformProvider,
  usePlatform,
  apiUrl,
  isDesktopChromeUserAgent,
  isDesktopChromeBrowser,
  MemoryStorage,
  type Platform,
  type KeyValueStorage,
  type Navigation,
  type BrowserInfo,
  type ExtensionBridge,
  type NavigatorInfo,
  type FormRequests,
  type PageArticleReader,
} from './platform.js';
export { ExtensionBanner, EXTENSION_BANNER_TEXT } from './shell/extension-banner.js';
export { DEFAULT_EXTENSION_STORE_URL } from './shell/extension-store-url.js';
export {
  createCoreServices,
  ServicesProvider,
  useServices,
  useAuth,
  useApi,
  useAnalytics,
  type CoreServices,
  type StudioServices,
} from './services.js';
export { createStudioServices } from './studio-services.js';
export { createQueryClient } from './query-client.js';
export { createApiClient, ApiError, errorMessage, isOffline, type ApiClient } from './api/api-client.js';
export { createAuthStore, type AuthStore, type AuthState, type AuthStoreApi } from './auth/auth-store.js';
export { createAnalytics, type Analytics } from './analytics.js';
export { SignInForm } from './login/sign-in-form.js';
export { LoadingSplash } from './shell/loading-splash.js';
export { TOAST_OPTIONS, StudioToaster, toast } from './toaster.js';
export { JobServiceProvider, type JobServiceFactory } from './shared/jobs/jobs-context.js';
export { followJobTransitions, type JobEventEffects, type JobService } from './shared/jobs/job-service.js';
export { createJobStore, type JobStoreApi, type TrackedJob } from './shared/jobs/tracked-jobs-store.js';
// The popup's compact form reuses the studio's form rules, voice picker and labels.
export {
  initialFormValues,
  isSubmitBlocked,
  optionLabel,
  submitButtonText,
  type GenerationFormValues,
  type SubmitPhase,
} from './shared/generation/generation-form-model.js';
export { useGenerationAccess } from './shared/generation/use-generation-access.js';
export { loadVideoDefaults, RESOLUTION_LABELS } from './preferences/video-defaults.js';
export { VoicePicker, asVoiceLanguage, useVoices } from './shared/voices/index.js';
export { labelForProgress, labelForStep } from './shared/jobs/job-labels.js';
export { guardWindowUnload } from './window-unload.js';
