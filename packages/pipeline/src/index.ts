export {
  type AssemblyRequest,
  type AssemblyResult,
  type AssemblyScene,
  type CaptionTrack,
  type GeneratedScene,
  type GenerationOutput,
  type GenerationRun,
  type ImageProvider,
  type ImageRequest,
  type ImageResult,
  type PictureCandidate,
  type PictureRequest,
  type ProgressListener,
  type ProgressUpdate,
  type Provider,
  type ProviderHealthReport,
  type Providers,
  type RenderBrand,
  type ResearchProvider,
  type Scene,
  type Story,
  type StoryboardInput,
  type StoryboardSceneInput,
  type StoryProvider,
  type StoryRequest,
  type StorySource,
  type SynthesisRequest,
  type SynthesisResult,
  type VoiceProvider,
  type WikipediaArticle,
  type WikipediaArticleMatch,
  type WordTiming,
  type WrittenPost,
} from './providers/types.js';
export { CancelledError, ProviderError, throwIfAborted } from './errors.js';
export { runGeneration, type RunGenerationOptions } from './runner/run-generation.js';
export { cpuSecondsNow, formatTimings, type StepTiming } from './runner/step-timings.js';
export { GenerationError } from './runner/generation-error.js';
export { STEP_BANDS } from './runner/progress-tracker.js';
export { loadPipelineConfig, PipelineConfigError, PIPELINE_ENV_VARIABLES, type PipelineConfig } from './pipeline-config.js';
export {
  createProviderRegistry,
  createProviders,
  type ImageProviderId,
  type ProviderChoice,
  type ProviderRegistry,
  type ResearchProviderId,
  type StoryProviderId,
} from './provider-registry.js';
export { resolveFfmpegBinaries, defaultFfmpegBinaries, type FfmpegBinaries } from './assembly/ffmpeg-binary.js';
export { liveFfmpegPids, runFfmpeg, FfmpegError } from './assembly/run-ffmpeg.js';
export { assembleVideo, type AssembleOptions } from './assembly/assemble-video.js';
export { callProvider, markRetriedByAdapter } from './providers/provider-retry.js';
export {
  KNOWN_PROVIDER_NAMES,
  PROVIDER_CALL_ERROR_CODES,
  PROVIDER_CALL_KINDS,
  providerCallErrorCode,
  type ProviderCall,
  type ProviderCallErrorCode,
  type ProviderCallKind,
  type ProviderCallObserver,
} from './providers/provider-calls.js';
export { createOfflineStoryProvider } from './story/offline-story-provider.js';
export { createOfflineVoiceProvider } from './voice/offline-voice-provider.js';
export { createNeuralVoiceProvider } from './voice/neural-voice-provider.js';
export { NeuralVoiceModel, getNeuralVoiceModel, type NeuralModelEvent } from './voice/neural-voice-model.js';
export { KOKORO_VOICES, hasNaturalVoices } from './voice/kokoro-voices.js';
export type { ModelStatus } from './voice/kokoro-model-store.js';
export {
  expectedSampleCount,
  findVoice,
  getVoices,
  groupByGender,
  sampleSlots,
  validateVoiceCatalogues,
  type SampleSlot,
} from './voice/provider-catalogues.js';
export { detectSourceLanguage, languageDisplayName, needsTranslation } from './story/source-language.js';
export { sourceLanguageMismatchMessage } from './story/offline-story-provider.js';
export { CONTENT_POLICY_MESSAGE } from './images/openai-image-provider.js';
export { renderCaptionPreview, PREVIEW_SIZE } from './assembly/caption-preview.js';
export { GENERATED_MUSIC_VOLUME_PERCENT, writeMusicBed } from './music/music-bed.js';
export { buildCaptionCues, formatSrt, formatVtt, type CaptionCue } from './assembly/caption-files.js';
export { buildPostKit, postCreditLines } from './story/post-kit.js';
export { titleMatchesTopic } from './research/wikipedia-research.js';
export { commonsFileOf } from './runner/research.js';
export {
  SandboxPool,
  SandboxLimitError,
  sharedSandbox,
  SANDBOX_DEFAULTS,
  type SandboxLimit,
  type SandboxPoolOptions,
  type SandboxTask,
} from './sandbox/worker-pool.js';
export { MAX_DURATION_DRIFT_SECONDS } from './runner/narration.js';
