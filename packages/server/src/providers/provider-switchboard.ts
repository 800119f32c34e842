import { cachedValue, PROVIDER_HEALTH_CACHE_MS } from '../plugins/health-plugin.js';
import {
  PROVIDER_TYPES,
  VOICE_PROVIDERS,
  type ProviderHealth,
  type ProviderType,
  type ProvidersResponse,
  type VoiceProviderId,
} from '@reelsmith/contracts';
import type { ImageProviderId, Provider, ProviderChoice, ProviderRegistry, ResearchProviderId, StoryProviderId } from '@reelsmith/pipeline';
import { badRequest } from '../errors.js';
import type { VoiceSettings } from '../voices/voice-settings.js';
import { IMAGE_PROVIDER_IDS, RESEARCH_PROVIDER_IDS, STORY_PROVIDER_IDS, type ProviderSettings } from './provider-settings.js';

/** A health check that hangs must not hang the dashboard: it is reported as an error after this. */
export const HEALTH_CHECK_TIMEOUT_MS = 10_000;

/** Every provider name the product knows per type, configured here or not. */
export const KNOWN_PROVIDERS: Record<ProviderType, readonly string[]> = {
  story: STORY_PROVIDER_IDS,
  images: IMAGE_PROVIDER_IDS,
  voice: VOICE_PROVIDERS,
  research: RESEARCH_PROVIDER_IDS,
};

const TYPE_LABEL: Record<ProviderType, string> = { story: 'story', images: 'image', voice: 'voice', research: 'research' };

/** What each provider needs from the environment, for the message when it is not configured. */
const REQUIREMENTS: Record<string, string> = {
  'story:openai': 'OPENAI_API_KEY (or an OPENAI_BASE_URL on localhost)',
  'images:openai': 'IMAGE_API_KEY or OPENAI_API_KEY',
  'voice:azure': 'AZURE_SPEECH_KEY and AZURE_SPEECH_REGION',
  'voice:elevenlabs': 'ELEVENLABS_API_KEY',
  'research:wikipedia': 'RESEARCH_PROVIDER=wikipedia (the default)',
};

/** Research switched off: nothing is sent to Wikimedia, topic-only videos are written offline. */
const RESEARCH_OFF: Provider = {
  name: 'off',
  health: () => Promise.resolve({ name: 'off', status: 'healthy', details: 'Research is off: topics are not looked up on Wikipedia' }),
};

export interface ProviderSwitchboardOptions {
  registry: ProviderRegistry;
  /** Story and image choices. */
  settings: ProviderSettings;
  /** The voice choice, shared with POST /api/voice-providers/switch. */
  voiceSettings: VoiceSettings;
  now?: () => Date;
}

/**
 * The providers new jobs run with, and the admin's switch between the configured ones. Story and
 * image choices are read when a job starts; the voice is fixed into a job's parameters when it is
 * submitted. A persisted choice whose credentials have since been removed falls back to the
 * environment's default rather than failing every job.
 */
export class ProviderSwitchboard {
  constructor(private readonly options: ProviderSwitchboardOptions) {}

  /** Every provider the environment configures (the metrics hear their calls). */
  get registry(): ProviderRegistry {
    return this.options.registry;
  }

  available(type: ProviderType): string[] {
    const { registry } = this.options;
    if (type === 'story') return registry.availableStoryProviders();
    if (type === 'images') return registry.availableImageProviders();
    if (type === 'research') return registry.research() ? ['wikipedia', 'off'] : ['off'];
    return registry.availableVoiceProviders();
  }

  /** The story and image providers a job starting now runs with. */
  choice(): Required<ProviderChoice> {
    const { registry, settings } = this.options;
    const saved = settings.choice();
    const story = saved.story && registry.availableStoryProviders().includes(saved.story) ? saved.story : registry.defaultStoryProvider;
    const images = saved.images && registry.availableImageProviders().includes(saved.images) ? saved.images : registry.defaultImageProvider;
    // Research is on wherever the environment enables it, unless the admin switched it off.
    const research: ResearchProviderId = registry.research() && saved.research !== 'off' ? 'wikipedia' : 'off';
    return { story, images, research };
  }

  current(type: ProviderType): string {
    if (type === 'voice') return this.options.voiceSettings.voiceProvider();
    return this.choice()[type];
  }

  list(): ProvidersResponse['providers'] {
    const entries = PROVIDER_TYPES.map((type) => [type, { current: this.current(type), available: this.available(type) }] as const);
    return Object.fromEntries(entries) as ProvidersResponse['providers'];
  }

  /** Makes `provider` the one new jobs of `type` use; a 400 for a name that is unknown or not configured. */
  async switchTo(type: ProviderType, provider: string): Promise<string> {
    const label = TYPE_LABEL[type];
    if (!KNOWN_PROVIDERS[type].includes(provider)) {
      throw badRequest(
        `Unknown ${label} provider "${provider}". Known ${label} providers: ${KNOWN_PROVIDERS[type].join(', ')}`,
        'provider',
      );
    }
    if (!this.available(type).includes(provider)) {
      const needs = REQUIREMENTS[`${type}:${provider}`];
      throw badRequest(
        `The ${provider} ${label} provider is not configured on this server${needs ? `: set ${needs} and restart the server` : ''}`,
        'provider',
      );
    }
    if (type === 'voice') await this.options.voiceSettings.setVoiceProvider(provider as VoiceProviderId);
    else if (type === 'story') await this.options.settings.setChoice({ story: provider as StoryProviderId });
    else if (type === 'research') await this.options.settings.setChoice({ research: provider as ResearchProviderId });
    else await this.options.settings.setChoice({ images: provider as ImageProviderId });
    return provider;
  }

  private providerOf(type: ProviderType, name: string): Provider {
    const { registry } = this.options;
    if (type === 'story') return registry.storyProvider(name as StoryProviderId);
    if (type === 'images') return registry.imageProvider(name as ImageProviderId);
    if (type === 'research') {
      if (name === 'off') return RESEARCH_OFF;
      const research = registry.research();
      if (!research) throw new Error('Research is off on this server (RESEARCH_PROVIDER=off)');
      return research;
    }
    return registry.voice(name as VoiceProviderId);
  }

  private readonly healthCache = new Map<string, () => Promise<ProviderHealth>>();

  /**
   * The current provider of each type, through its own health(): each provider is asked at most
   * once per 30 s (a stale answer is served while the next check runs), so however often admins
   * look, no upstream service gets more than one health call per 30 s from here.
   */
  async health(): Promise<ProviderHealth[]> {
    return Promise.all(PROVIDER_TYPES.map((type) => this.checkCached(type, this.current(type))));
  }

  /** One provider's health through the same 30 s cache (the switch dialog's check of its target). */
  checkCached(type: ProviderType, name: string): Promise<ProviderHealth> {
    const key = `${type}:${name}`;
    let cached = this.healthCache.get(key);
    if (!cached) {
      cached = cachedValue(() => this.checkOne(type, name), PROVIDER_HEALTH_CACHE_MS, {
        staleWhileRefresh: true,
        now: () => (this.options.now?.() ?? new Date()).getTime(),
      });
      this.healthCache.set(key, cached);
    }
    return cached();
  }

  /** One provider checked now, configured or not (an unconfigured one reports why): a switch's target before the switch. */
  async checkOne(type: ProviderType, name: string): Promise<ProviderHealth> {
    const checkedAt = () => (this.options.now?.() ?? new Date()).toISOString();
    const failed = (details: string): ProviderHealth => ({ type, name, status: 'error', details, checkedAt: checkedAt() });
    let provider: Provider;
    try {
      provider = this.providerOf(type, name);
    } catch (error) {
      // E.g. a voice provider chosen before its key was removed: new jobs with it are refused.
      return failed((error as Error).message);
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`No answer within ${HEALTH_CHECK_TIMEOUT_MS / 1000} s`));
      }, HEALTH_CHECK_TIMEOUT_MS);
    });
    try {
      const report = await Promise.race([provider.health(controller.signal), timeout]);
      return { type, name: report.name, status: report.status, details: report.details, checkedAt: checkedAt() };
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }
}
