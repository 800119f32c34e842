import type { VoiceProviderId } from '@reelsmith/contracts';
import {
  createProviderRegistry,
  loadPipelineConfig,
  resolveFfmpegBinaries,
  runGeneration,
  type FfmpegBinaries,
  type ProviderChoice,
  type ProviderRegistry,
} from '@reelsmith/pipeline';
import type { GenerationRunner, ProvidersForJob } from './job-worker.js';

export interface DefaultPipeline {
  runner: GenerationRunner;
  providersFor: ProvidersForJob;
  /** Voice providers this server has credentials for; a job naming another one is refused at submit. */
  availableVoiceProviders(): VoiceProviderId[];
  /** Every provider the environment configures, for the admin's provider list, health and switch. */
  registry: ProviderRegistry;
}

/**
 * The real pipeline as configured by the environment (STORY_PROVIDER, IMAGE_PROVIDER, VOICE_PROVIDER,
 * credentials, FFMPEG_PATH, RENDER_PRESET). The configuration is read at start-up so a bad variable
 * stops the server with its name; ffmpeg is located on the first job, so the API still serves without it.
 */
export function createDefaultPipeline(
  env: Record<string, string | undefined>,
  /** The admin's current story/image choice, asked each time a job starts (default: the environment's). */
  currentChoice: () => ProviderChoice = () => ({}),
  /** Where start-up warnings and research's give-ups are logged (default: the console's one-line notes). */
  log?: { info(object: object, message: string): void; warn(message: string): void },
): DefaultPipeline {
  const config = loadPipelineConfig(env);
  if (config.research && !config.research.hasContact && env.NODE_ENV === 'production') {
    // Wikimedia's User-Agent policy: a client that names no contact may be blocked without notice.
    log?.warn('Neither WIKIMEDIA_CONTACT nor PUBLIC_URL is set: Wikimedia asks every client to name a contact (research may be blocked)');
  }
  const registry = createProviderRegistry(config);
  let binaries: FfmpegBinaries | undefined;
  return {
    runner: (run) => {
      binaries ??= resolveFfmpegBinaries({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath }, env);
      return runGeneration(run, {
        binaries,
        renderPreset: config.renderPreset,
        ...(log ? { onPictureGiveUp: (note) => log.info({ jobId: run.jobId, ...note }, 'research gave up on a scene picture') } : {}),
      });
    },
    providersFor: (params) => registry.providersFor(params.voiceProvider, currentChoice()),
    availableVoiceProviders: () => registry.availableVoiceProviders(),
    registry,
  };
}
