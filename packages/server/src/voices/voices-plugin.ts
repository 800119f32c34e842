import fastifyStatic from '@fastify/static';
import { API, VOICE_PROVIDERS, type NaturalVoicesStatus, type VoiceLanguage, type VoiceProviderId } from '@reelsmith/contracts';
import type { NeuralVoiceModel, ProviderCallObserver, ProviderRegistry, VoiceProvider } from '@reelsmith/pipeline';
import { createProviderRegistry, hasNaturalVoices, loadPipelineConfig } from '@reelsmith/pipeline';
import { getVoices, groupByGender, validateVoiceCatalogues } from '@reelsmith/pipeline';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { badRequest } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { SAMPLES_KEY_PREFIX, VoiceSampleService } from './voice-sample-service.js';
import { z } from 'zod';
import { defaultVoiceProvider, VoiceSettings } from './voice-settings.js';

/** Samples only change when regenerated; the ETag catches that, so a day of caching is safe. */
export const SAMPLE_MAX_AGE_SECONDS = 24 * 60 * 60;
const SAMPLES_URL = '/audio/voice-samples/';
/** `voice-<id>-<lang>.mp3` or `native/<id>.mp3`, nothing else. */
const SAMPLE_PATH = /^(native\/)?[A-Za-z0-9][A-Za-z0-9._@+=-]*\.mp3$/;
/** How often an API process re-lists the bucket's samples (another process may have made some). */
const SAMPLE_INDEX_REFRESH_MS = 60_000;

export interface VoicesPluginOptions {
  /** The pipeline's variables are read from here (default process.env): AZURE_SPEECH_*, ELEVENLABS_*. */
  env?: Record<string, string | undefined>;
  /** Replaces the synthesiser a provider's samples are made with (tests). */
  synthesizers?: Partial<Record<VoiceProviderId, VoiceProvider>>;
  /** Start making the offline provider's missing samples once the server is ready (default true). */
  autoGenerateOfflineSamples?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    voiceSamples: VoiceSampleService;
    /** The voice provider new jobs narrate with, as chosen by an admin (default offline). */
    currentVoiceProvider(): VoiceProviderId;
    /** Watches the calls the voice samples make to their providers (the metrics count them); returns its stop. */
    observeVoiceSampleCalls(observer: ProviderCallObserver): () => void;
  }
}

/**
 * The voice providers this environment configures, built by the pipeline's own registry so samples
 * use exactly the credentials, endpoints and models (AZURE_SPEECH_ENDPOINT, ELEVENLABS_BASE_URL,
 * ELEVENLABS_MODEL, ...) that jobs narrate with.
 */
function configuredSynthesizers(registry: ProviderRegistry): Partial<Record<VoiceProviderId, () => VoiceProvider>> {
  return Object.fromEntries(registry.availableVoiceProviders().map((provider) => [provider, () => registry.voice(provider)]));
}

/** The natural voices' model as the studio and the admin see it. */
function naturalVoicesStatus(model: NeuralVoiceModel, language?: VoiceLanguage): NaturalVoicesStatus {
  const status = model.status();
  return {
    state: status.state,
    progress: status.progress,
    message: status.state === 'ready' ? null : model.unavailableReason(),
    ...(language ? { languageHasNaturalVoices: hasNaturalVoices(language) } : {}),
  };
}

/**
 * With VOICE_PROVIDER=neural and no model on disk, the server fetches it in the background once it
 * is ready (never in a test run or CI unless VOICE_MODEL_URL is set: see NeuralVoiceConfig), logging
 * its progress every 10%; the natural voices' previews are made once it is there.
 */
function downloadModelInBackground(app: FastifyInstance, model: NeuralVoiceModel, whenReady: () => void): void {
  const log = app.log.child({ module: 'natural-voices' });
  const stop = new AbortController();
  let lastLogged = -10;
  const unsubscribe = model.onEvent((event) => {
    if (event.type === 'progress' && event.status.progress >= lastLogged + 10) {
      lastLogged = event.status.progress - (event.status.progress % 10);
      log.info(
        { progress: event.status.progress, bytes: event.status.bytesDone, total: event.status.bytesTotal },
        `natural voices downloading (${event.status.progress}%)`,
      );
    } else if (event.type === 'failed')
      log.warn({ reason: event.error }, `natural voices could not be downloaded: ${event.error}; jobs narrate with espeak-ng`);
  });
  app.addHook('onReady', async () => {
    void model.isReady().then(async (ready) => {
      if (!ready) {
        log.info(
          { from: model.options.modelUrl, into: model.dir },
          'natural voices missing: downloading them in the background; jobs narrate with espeak-ng meanwhile',
        );
        ready = await model.download(stop.signal);
      }
      if (ready) {
        log.info({ dir: model.dir }, 'natural voices ready');
        whenReady();
      }
    });
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    stop.abort();
  });
}

/**
 * Voices and their preview samples: GET /voices, the static samples under /audio/voice-samples/,
 * sample statistics, the admin's voice provider config and switch, and sample generation.
 */
export const voicesPlugin = fp<VoicesPluginOptions>(
  async (app, options) => {
    validateVoiceCatalogues();
    const settings = new VoiceSettings(app.appSettings, defaultVoiceProvider(options.env ?? process.env));
    // The model is DATA_DIR/models' whatever the environment passed says (one download per data folder).
    const registry = createProviderRegistry(loadPipelineConfig({ ...(options.env ?? process.env), DATA_DIR: app.config.paths.dataDir }));
    const factories = configuredSynthesizers(registry);
    const model = registry.neuralModel();
    const cache = new Map<VoiceProviderId, VoiceProvider>();
    const synthesizerFor = (provider: VoiceProviderId): VoiceProvider | null => {
      const injected = options.synthesizers?.[provider];
      if (injected) return injected;
      const cached = cache.get(provider);
      if (cached) return cached;
      const factory = factories[provider];
      if (!factory) return null;
      const created = factory();
      cache.set(provider, created);
      return created;
    };
    const availableProviders = (): VoiceProviderId[] => VOICE_PROVIDERS.filter((provider) => synthesizerFor(provider) !== null);

    const samples = new VoiceSampleService({
      samplesDir: app.config.paths.voiceSamplesDir,
      workDir: join(app.config.paths.dataDir, 'tmp', 'voice-samples'),
      synthesizerFor,
      log: app.log.child({ module: 'voice-samples' }),
      storage: app.storage,
      gate: app.background,
    });
    app.decorate('voiceSamples', samples);
    // The samples' synthesisers come from this registry, not the jobs': their calls are watched here.
    app.decorate('observeVoiceSampleCalls', (observer: ProviderCallObserver) => registry.observeCalls(observer));
    app.decorate('currentVoiceProvider', () => settings.voiceProvider());

    if (app.storage.kind === 's3') {
      // The samples live in the bucket: the same URLs answer through storage (presigned redirect or S3_PROXY streaming).
      await samples.refreshIndex();
      const refresh = setInterval(
        () => void samples.refreshIndex().catch((error: unknown) => app.log.warn({ err: error }, 'could not list voice samples')),
        SAMPLE_INDEX_REFRESH_MS,
      );
      refresh.unref();
      app.addHook('onClose', async () => clearInterval(refresh));
      app.route({
        method: 'GET',
        url: `${SAMPLES_URL}*`,
        schema: { params: z.object({ '*': z.string().regex(SAMPLE_PATH, 'must be a voice sample file') }) },
        handler: async (request, reply) => {
          const path = (request.params as { '*': string })['*'];
          return app.storage.serve(request, reply, SAMPLES_KEY_PREFIX + path, {
            cacheControl: `public, max-age=${SAMPLE_MAX_AGE_SECONDS}`,
          });
        },
      });
    } else
      // The samples folder, with ETag, Last-Modified, Range and caching; a missing file is the JSON 404.
      await app.register(async (scope) => {
        await scope.register(fastifyStatic, {
          root: app.config.paths.voiceSamplesDir,
          prefix: '/audio/voice-samples/',
          decorateReply: false,
          index: false,
          list: false,
          dotfiles: 'deny',
          cacheControl: true,
          maxAge: SAMPLE_MAX_AGE_SECONDS * 1000,
          etag: true,
          lastModified: true,
          acceptRanges: true,
          allowedPath: (pathName) => /^\/(native\/)?[^/]+\.mp3$/.test(pathName),
        });
      });

    registerRoute(app, API.voices, async (request) => {
      const provider = request.query.provider ?? settings.voiceProvider();
      const { language } = request.query;
      if (provider === 'neural' && model) await model.isReady();
      return {
        language,
        provider,
        voices: groupByGender(getVoices(provider, language)),
        ...(provider === 'neural' && model ? { naturalVoices: naturalVoicesStatus(model, language) } : {}),
      };
    });

    registerRoute(app, API.voiceSampleStats, async () => {
      const currentProvider = settings.voiceProvider();
      return { ...samples.counts(currentProvider), currentProvider };
    });

    registerRoute(app, API.voiceProviderConfig, async () => {
      const current = settings.voiceProvider();
      const counts = samples.counts(current);
      const status = samples.generationStatus();
      if (model) await model.isReady();
      return {
        current,
        available: availableProviders(),
        ...(model ? { naturalVoices: naturalVoicesStatus(model) } : {}),
        samples_status: {
          total: counts.total,
          available: counts.available,
          missing: counts.missing,
          generating: status.generating,
          // While idle, progress is how complete the current provider's samples are.
          progress: status.generating ? status.progress : counts.total === 0 ? 100 : Math.round((counts.available / counts.total) * 100),
        },
      };
    });

    registerRoute(app, API.switchVoiceProvider, async (request) => {
      const { provider } = request.body;
      if (!synthesizerFor(provider)) {
        const needs = provider === 'azure' ? 'AZURE_SPEECH_KEY and AZURE_SPEECH_REGION' : 'ELEVENLABS_API_KEY';
        throw badRequest(`The ${provider} voice provider is not configured: set ${needs} and restart the server`, 'provider');
      }
      await settings.setVoiceProvider(provider);
      request.log.info({ provider, by: request.user.id }, 'voice provider switched');
      return { message: `Voice provider switched to ${provider}`, current: provider };
    });

    registerRoute(app, API.generateVoiceSamples, async (request) => {
      const provider = settings.voiceProvider();
      // Until the model is there the natural voices would be espeak's: their previews wait for it.
      if (provider === 'neural' && model && !(await model.isReady())) return { started: false, message: model.unavailableReason() };
      const result = samples.generateMissing(provider);
      request.log.info({ provider, by: request.user.id, started: result.started }, 'voice sample generation requested');
      return result;
    });

    if (options.autoGenerateOfflineSamples ?? true) {
      // Not awaited: start-up never waits for samples; the run continues in the background.
      app.addHook('onReady', async () => {
        const provider = settings.voiceProvider();
        if (provider === 'offline') samples.generateMissing('offline');
        // The natural voices' list holds espeak-ng's basic voices too, whose previews are the offline
        // ones (the same files): made now, the natural ones once their model is there.
        else if (provider === 'neural') samples.generateMissing(model && (await model.isReady()) ? 'neural' : 'offline');
      });
    }
    if (model && registry.downloadModelAtStart)
      downloadModelInBackground(app, model, () => {
        // The natural voices' previews, in the background and yielding to creators' jobs (the sample service's gate).
        // After the basic voices' run, if one is under way.
        if (options.autoGenerateOfflineSamples ?? true) void samples.idle().then(() => samples.generateMissing('neural'));
      });
    app.addHook('onClose', async () => {
      await samples.stop();
    });
  },
  { name: 'voices', fastify: '5.x', dependencies: ['config', 'error-handler', 'auth', 'storage', 'app-settings', 'background'] },
);
