import type { VoiceProviderId } from '@reelsmith/contracts';
import { createOfflineImageProvider } from '../images/offline-image-provider.js';
import { createOpenAiImageProvider } from '../images/openai-image-provider.js';
import type { PipelineConfig } from '../pipeline-config.js';
import { createOfflineStoryProvider } from '../story/offline-story-provider.js';
import { createOpenAiStoryProvider } from '../story/openai-story-provider.js';
import { createAzureVoiceProvider } from '../voice/azure-voice-provider.js';
import { createElevenLabsVoiceProvider } from '../voice/elevenlabs-voice-provider.js';
import { createOfflineVoiceProvider } from '../voice/offline-voice-provider.js';
import type { ImageProvider, Providers, StoryProvider, VoiceProvider } from './types.js';

/**
 * The configured providers. Voice is per job: an admin can switch the default voice provider while
 * the server runs, and a job keeps the provider it was submitted with.
 */
export interface ProviderRegistry {
  readonly story: StoryProvider;
  readonly images: ImageProvider;
  /** Voice providers that have what they need (the offline one always does). */
  availableVoiceProviders(): VoiceProviderId[];
  /** Throws when the named provider is not configured. */
  voice(name?: VoiceProviderId): VoiceProvider;
  providersFor(voiceProvider?: VoiceProviderId): Providers;
}

export function createProviderRegistry(config: PipelineConfig): ProviderRegistry {
  const ffmpegOptions = config.ffmpegPath ? { ffmpegPath: config.ffmpegPath } : {};
  const ffprobeOptions = config.ffprobePath ? { ffprobePath: config.ffprobePath } : {};

  const story =
    config.story.provider === 'openai' ? createOpenAiStoryProvider({ ...withoutProvider(config.story) }) : createOfflineStoryProvider();
  const images =
    config.images.provider === 'openai' ? createOpenAiImageProvider({ ...withoutProvider(config.images) }) : createOfflineImageProvider();

  const voiceFactories: Partial<Record<VoiceProviderId, () => VoiceProvider>> = {
    offline: () => createOfflineVoiceProvider(ffmpegOptions),
  };
  const { azure, elevenlabs } = config.voice;
  if (azure) voiceFactories.azure = () => createAzureVoiceProvider({ ...azure, ...ffprobeOptions });
  if (elevenlabs) voiceFactories.elevenlabs = () => createElevenLabsVoiceProvider({ ...elevenlabs, ...ffprobeOptions });
  const voices = new Map<VoiceProviderId, VoiceProvider>();

  const registry: ProviderRegistry = {
    story,
    images,
    availableVoiceProviders: () => Object.keys(voiceFactories) as VoiceProviderId[],
    voice(name = config.voice.provider) {
      const existing = voices.get(name);
      if (existing) return existing;
      const factory = voiceFactories[name];
      if (!factory) throw new Error(`The ${name} voice provider is not configured on this server.`);
      const created = factory();
      voices.set(name, created);
      return created;
    },
    providersFor: (voiceProvider) => ({ story, images, voice: registry.voice(voiceProvider) }),
  };
  return registry;
}

/** The default providers of a configuration. */
export function createProviders(config: PipelineConfig): Providers {
  return createProviderRegistry(config).providersFor();
}

function withoutProvider<T extends { provider: string }>(value: T): Omit<T, 'provider'> {
  const { provider: _provider, ...rest } = value;
  return rest;
}
