// The extension's own screens (popup) and its host wiring import from here, not from the package
// root: the root also brings the shell, the routes and their stylesheets, which the bundler must
// keep (stylesheet imports are side effects), and with them react-router. This entry carries only
// what the popup renders and what every extension page's host needs (issue 17: popup size).
export { StudioProviders } from './app/studio-providers.js';
export { PlatformProvider, usePlatform, apiUrl, MemoryStorage, type Platform, type KeyValueStorage, type TopicRequests } from './platform.js';
export { createStudioServices, useAuth, type StudioServices } from './services.js';
export { errorMessage, isOffline, type ApiClient } from './api/api-client.js';
export { SignInForm } from './login/sign-in-form.js';
export { LoadingSplash } from './shell/loading-splash.js';
export { toast } from './toaster.js';
export { followJobTransitions, type JobEventEffects, type JobService } from './jobs/job-service.js';
export { createJobStore } from './jobs/job-store.js';
export { initialFormValues, isSubmitBlocked, optionLabel, submitButtonText, type GenerationFormValues, type SubmitPhase } from './studio/generation-form-model.js';
export { useGenerationAccess } from './studio/use-generation-access.js';
export { loadVideoDefaults, RESOLUTION_LABELS } from './preferences/video-defaults.js';
export { VoicePicker } from './voices/voice-picker.js';
export { asVoiceLanguage, useVoices } from './voices/voice-queries.js';
export { labelForProgress, labelForStep } from './jobs/job-labels.js';
