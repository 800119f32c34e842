import type { VoiceProviderId } from '@reelsmith/contracts';
import { createOfflineImageProvider } from './images/offline-image-provider.js';
import { createOpenAiImageProvider } from './images/openai-image-provider.js';
import { createStockPhotoProvider, pexelsPhotoSearch, unsplashPhotoSearch } from './images/stock-photo-provider.js';
import type { PipelineConfig } from './pipeline-config.js';
import { createOfflineStoryProvider } from './story/offline-story-provider.js';
import { createOpenAiStoryProvider } from './story/openai-story-provider.js';
import { createAzureVoiceProvider } from './voice/azure-voice-provider.js';
import { createElevenLabsVoiceProvider } from './voice/elevenlabs-voice-provider.js';
import { createOfflineVoiceProvider } from './voice/offline-voice-provider.js';
import { createNeuralVoiceProvider } from './voice/neural-voice-provider.js';
import { getNeuralVoiceModel, type NeuralVoiceModel } from './voice/neural-voice-model.js';
import type { ImageProvider, Providers, ResearchProvider, StoryProvider, VoiceProvider } from './providers/types.js';
import { createWikimediaClient } from './research/wikimedia-client.js';
import { createWikipediaResearch } from './research/wikipedia-research.js';

export type StoryProviderId = 'offline' | 'openai';
export type ImageProviderId = 'offline' | 'openai' | 'pexels' | 'unsplash';

/** Which story and image providers a job runs with; unset means the configuration's default. */
export interface ProviderChoice {
  story?: StoryProviderId;
  images?: ImageProviderId;
  /** 'off' when the admin switched research off; unset means the configuration's (RESEARCH_PROVIDER). */
  research?: ResearchProviderId;
}

export type ResearchProviderId = 'wikipedia' | 'off';

/**
 * The configured providers. Voice is per job: an admin can switch the default voice provider while
 * the server runs, and a job keeps the provider it was submitted with. Story and image providers
 * can be switched too, among those the environment has credentials for.
 */
export interface ProviderRegistry {
  /** The default story writer and image provider of the configuration. */
  readonly story: StoryProvider;
  readonly images: ImageProvider;
  readonly defaultStoryProvider: StoryProviderId;
  readonly defaultImageProvider: ImageProviderId;
  readonly defaultVoiceProvider: VoiceProviderId;
  availableStoryProviders(): StoryProviderId[];
  availableImageProviders(): ImageProviderId[];
  /** Voice providers that have what they need (the offline one always does). */
  availableVoiceProviders(): VoiceProviderId[];
  /** Each throws when the named provider is not configured. */
  storyProvider(name?: StoryProviderId): StoryProvider;
  imageProvider(name?: ImageProviderId): ImageProvider;
  voice(name?: VoiceProviderId): VoiceProvider;
  /** The natural voices' model (its download and status), or null when the configuration has none. */
  neuralModel(): NeuralVoiceModel | null;
  /** Whether the server may fetch the natural voices' model in the background at start (see NeuralVoiceConfig). */
  readonly downloadModelAtStart: boolean;
  /** Wikipedia research, or null when RESEARCH_PROVIDER=off. */
  research(): ResearchProvider | null;
  providersFor(voiceProvider?: VoiceProviderId, choice?: ProviderChoice): Providers;
}

/** Builds each provider on first use and keeps it, so a provider's connection state is shared by jobs. */
function lazyProviders<Id extends string, P>(kind: string, factories: Partial<Record<Id, () => P>>) {
  const created = new Map<Id, P>();
  return {
    names: () => Object.keys(factories) as Id[],
    get(name: Id): P {
      const existing = created.get(name);
      if (existing) return existing;
      const factory = factories[name];
      if (!factory) throw new Error(`The ${name} ${kind} provider is not configured on this server.`);
      const provider = factory();
      created.set(name, provider);
      return provider;
    },
  };
}

export function createProviderRegistry(config: PipelineConfig): ProviderRegistry {
  const ffmpegOptions = config.ffmpegPath ? { ffmpegPath: config.ffmpegPath } : {};
  const ffprobeOptions = config.ffprobePath ? { ffprobePath: config.ffprobePath } : {};

  const storyFactories: Partial<Record<StoryProviderId, () => StoryProvider>> = {};
  for (const choice of [config.story, ...(config.storyChoices ?? [])]) {
    storyFactories[choice.provider] ??=
      choice.provider === 'openai' ? () => createOpenAiStoryProvider({ ...withoutProvider(choice) }) : () => createOfflineStoryProvider();
  }
  const imageFactories: Partial<Record<ImageProviderId, () => ImageProvider>> = {};
  for (const choice of [config.images, ...(config.imageChoices ?? [])]) {
    imageFactories[choice.provider] ??=
      choice.provider === 'openai'
        ? () => createOpenAiImageProvider({ ...withoutProvider(choice) })
        : choice.provider === 'pexels'
          ? () => createStockPhotoProvider(pexelsPhotoSearch(choice.apiKey, { videos: choice.videos }))
          : choice.provider === 'unsplash'
            ? () => createStockPhotoProvider(unsplashPhotoSearch(choice.apiKey))
            : () => createOfflineImageProvider();
  }
  const offlineVoice = () => voices.get('offline');
  const neuralConfig = config.voice.neural;
  const neuralModel = neuralConfig
    ? getNeuralVoiceModel({
        modelsDir: neuralConfig.modelsDir,
        modelUrl: neuralConfig.modelUrl,
        ...(neuralConfig.manifestPath ? { manifestPath: neuralConfig.manifestPath } : {}),
      })
    : null;
  const voiceFactories: Partial<Record<VoiceProviderId, () => VoiceProvider>> = {
    offline: () => createOfflineVoiceProvider(ffmpegOptions),
    // The natural voices are always offered: until their model is on disk they speak with espeak-ng.
    ...(neuralModel ? { neural: () => createNeuralVoiceProvider({ model: neuralModel, fallback: offlineVoice(), ...ffmpegOptions }) } : {}),
  };
  const { azure, elevenlabs } = config.voice;
  if (azure) voiceFactories.azure = () => createAzureVoiceProvider({ ...azure, ...ffprobeOptions });
  if (elevenlabs) voiceFactories.elevenlabs = () => createElevenLabsVoiceProvider({ ...elevenlabs, ...ffprobeOptions });

  const researchConfig = config.research;
  let researchProvider: ResearchProvider | null = null;
  // One client for the whole process, so its 24 h answer cache is shared by every job and the studio's look-ups.
  const research = (): ResearchProvider | null =>
    researchConfig ? (researchProvider ??= createWikipediaResearch(createWikimediaClient(researchConfig))) : null;

  const stories = lazyProviders('story', storyFactories);
  const images = lazyProviders('image', imageFactories);
  const voices = lazyProviders('voice', voiceFactories);

  const registry: ProviderRegistry = {
    story: stories.get(config.story.provider),
    images: images.get(config.images.provider),
    defaultStoryProvider: config.story.provider,
    defaultImageProvider: config.images.provider,
    defaultVoiceProvider: config.voice.provider,
    availableStoryProviders: () => stories.names(),
    availableImageProviders: () => images.names(),
    availableVoiceProviders: () => voices.names(),
    storyProvider: (name = config.story.provider) => stories.get(name),
    imageProvider: (name = config.images.provider) => images.get(name),
    voice: (name = config.voice.provider) => voices.get(name),
    research,
    neuralModel: () => neuralModel,
    downloadModelAtStart: Boolean(neuralModel && neuralConfig?.downloadAtStart && config.voice.provider === 'neural'),
    providersFor: (voiceProvider, choice = {}) => {
      const researcher = choice.research === 'off' ? null : research();
      return {
        story: registry.storyProvider(choice.story),
        images: registry.imageProvider(choice.images),
        voice: registry.voice(voiceProvider),
        ...(researcher ? { research: researcher } : {}),
      };
    },
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
