import type { VoiceProviderId } from '@reelsmith/contracts';
import { createProviderRegistry, loadPipelineConfig, resolveFfmpegBinaries, runGeneration, type FfmpegBinaries } from '@reelsmith/pipeline';
import type { GenerationRunner, ProvidersForJob } from './job-worker.js';

export interface DefaultPipeline {
  runner: GenerationRunner;
  providersFor: ProvidersForJob;
  /** Voice providers this server has credentials for; a job naming another one is refused at submit. */
  availableVoiceProviders(): VoiceProviderId[];
}

/**
 * The real pipeline as configured by the environment (STORY_PROVIDER, IMAGE_PROVIDER, VOICE_PROVIDER,
 * credentials, FFMPEG_PATH, RENDER_PRESET). The configuration is read at start-up so a bad variable
 * stops the server with its name; ffmpeg is located on the first job, so the API still serves without it.
 */
export function createDefaultPipeline(env: Record<string, string | undefined>): DefaultPipeline {
  const config = loadPipelineConfig(env);
  const registry = createProviderRegistry(config);
  let binaries: FfmpegBinaries | undefined;
  return {
    runner: (run) => {
      binaries ??= resolveFfmpegBinaries({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath }, env);
      return runGeneration(run, { binaries, renderPreset: config.renderPreset });
    },
    providersFor: (params) => registry.providersFor(params.voiceProvider),
    availableVoiceProviders: () => registry.availableVoiceProviders(),
  };
}
