// The extension's own screens (popup) and its host wiring import from here, not from the package
// root: the root also brings the shell, the routes and their stylesheets, which the bundler must
// keep (stylesheet imports are side effects), and with them react-router. This entry carries only
// what the popup renders, and no React Query: the popup's few requests are its own (its
// JavaScript stays within 100 KB gzip). Each module named here is one the popup uses whole; the extension build
// groups the popup's shared code by this import graph (vite.config.ts).
export { CoreProviders } from './app/core-providers.js';
export {
  PlatformProvider,
  usePlatform,
  apiUrl,
  MemoryStorage,
  type Platform,
  type Navigation,
  type KeyValueStorage,
  type FormRequests,
  type PageArticleReader,
} from './platform.js';
export { createCoreServices, useApi, useAuth, type CoreServices } from './services.js';
export { errorMessage, isOffline, type ApiClient } from './api/api-client.js';
export { LoadingSplash } from './shell/loading-splash.js';
export { toast } from './toaster.js';
export { initialFormValues, optionLabel, validateForm, type GenerationFormValues } from './shared/generation/generation-form-model.js';
export { generationAccess, type GenerationAccess } from './shared/generation/generation-access.js';
export { useGenerationSubmit } from './studio/use-generation-submit.js';
export { SourceFields } from './studio/source-fields.js';
export { focusFirstInvalidField } from './ui/first-invalid-field.js';
export { TOPIC_ONLY } from './shared/generation/source-draft.js';
export { askCanGenerate } from './shared/billing/can-generate-request.js';
export { loadVideoDefaults, RESOLUTION_LABELS } from './preferences/video-defaults.js';
export { VoiceLists, type VoiceListState } from './shared/voices/voice-lists.js';
export { asVoiceLanguage, useSettledVoiceLanguage } from './shared/voices/voice-language.js';
export { labelForProgress, labelForStep } from './shared/jobs/job-labels.js';
