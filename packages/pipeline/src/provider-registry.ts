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
import { OBSERVED_METHODS, observedProvider, type ProviderCallKind, type ProviderCallObserver } from './providers/provider-calls.js';

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
  /**
   * Hears every call the registry's providers make for jobs and look-ups (story, voice, images,
   * research): its kind, the provider's id, its seconds and its error code (the server's metrics).
   * Returns the function that stops it.
   */
  observeCalls(observer: ProviderCallObserver): () => void;
}

/**
 * Builds each provider on first use and keeps it, so a provider's connection state is shared by
 * jobs; `get` hands it out with its calls reported to the registry's observers, `unobserved` as built
 * (a provider that speaks through another, the natural voices through espeak-ng, must not count that
 * call twice).
 */
function lazyProviders<Id extends string, P extends object>(
  kind: ProviderCallKind,
  factories: Partial<Record<Id, () => P>>,
  observe: ProviderCallObserver,
) {
  const created = new Map<Id, { raw: P; observed: P }>();
  const build = (name: Id) => {
    const existing = created.get(name);
    if (existing) return existing;
    const factory = factories[name];
    if (!factory) throw new Error(`The ${name} ${kindNames[kind]} provider is not configured on this server.`);
    const raw = factory();
    const entry = { raw, observed: observedProvider(raw, kind, name, OBSERVED_METHODS[kind], observe) };
    created.set(name, entry);
    return entry;
  };
  return {
    names: () => Object.keys(factories) as Id[],
    get: (name: Id): P => build(name).observed,
    unobserved: (name: Id): P => build(name).raw,
  };
}

const kindNames: Record<ProviderCallKind, string> = { story: 'story', voice: 'voice', images: 'image', research: 'research' };

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
  const observers = new Set<ProviderCallObserver>();
  const observe: ProviderCallObserver = (call) => {
    for (const observer of observers) observer(call);
  };
  const offlineVoice = () => voices.unobserved('offline');
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
    researchConfig
      ? (researchProvider ??= observedProvider(
          createWikipediaResearch(createWikimediaClient(researchConfig)),
          'research',
          'wikipedia',
          OBSERVED_METHODS.research,
          observe,
        ))
      : null;

  const stories = lazyProviders('story', storyFactories, observe);
  const images = lazyProviders('images', imageFactories, observe);
  const voices = lazyProviders('voice', voiceFactories, observe);

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
    observeCalls: (observer) => {
      observers.add(observer);
      return () => observers.delete(observer);
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
