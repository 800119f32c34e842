import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadPipelineConfig, PipelineConfigError } from './pipeline-config.js';

describe('loadPipelineConfig', () => {
  it('defaults to the offline providers and the natural voice with no environment at all', () => {
    // As outside a test run: this process's own VITEST and NODE_ENV=test would count as one too.
    vi.stubEnv('VITEST', '');
    vi.stubEnv('NODE_ENV', '');
    vi.stubEnv('CI', '');
    const config = loadPipelineConfig({});
    vi.unstubAllEnvs();
    expect(config.story.provider).toBe('offline');
    expect(config.images.provider).toBe('offline');
    expect(config.voice.provider).toBe('neural');
    expect(config.voice.neural).toEqual({
      modelsDir: path.resolve('data', 'models'),
      modelUrl: 'https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX',
      downloadAtStart: true,
    });
    expect(config.renderPreset).toBe('ultrafast');
  });

  it('never fetches the voice model at start in a test run or CI unless VOICE_MODEL_URL says where', () => {
    expect(loadPipelineConfig({ VITEST: 'true' }).voice.neural?.downloadAtStart).toBe(false);
    expect(loadPipelineConfig({ CI: 'true' }).voice.neural?.downloadAtStart).toBe(false);
    expect(loadPipelineConfig({ NODE_ENV: 'test' }).voice.neural?.downloadAtStart).toBe(false);
    const local = loadPipelineConfig({ CI: 'true', VOICE_MODEL_URL: 'http://127.0.0.1:9000/repo', DATA_DIR: '/srv/reelsmith' }).voice
      .neural;
    expect(local).toMatchObject({ downloadAtStart: true, modelUrl: 'http://127.0.0.1:9000/repo', modelsDir: '/srv/reelsmith/models' });
    expect(loadPipelineConfig({ VOICE_MODEL_URL: 'off' }).voice.neural).toMatchObject({ modelUrl: null, downloadAtStart: false });
    expect(() => loadPipelineConfig({ VOICE_MODEL_URL: 'nowhere' })).toThrow(/VOICE_MODEL_URL must be a URL or off/);
  });

  it('names a bad variable', () => {
    expect(() => loadPipelineConfig({ STORY_PROVIDER: 'gpt' })).toThrow(/STORY_PROVIDER must be offline or openai/);
    expect(() => loadPipelineConfig({ RENDER_PRESET: 'warp' })).toThrow(/RENDER_PRESET/);
    expect(() => loadPipelineConfig({ OPENAI_BASE_URL: 'not a url' })).toThrow(/OPENAI_BASE_URL must be a URL/);
  });

  it('refuses a real provider chosen without its key, naming the variable', () => {
    expect(() => loadPipelineConfig({ STORY_PROVIDER: 'openai' })).toThrow(PipelineConfigError);
    expect(() => loadPipelineConfig({ STORY_PROVIDER: 'openai' })).toThrow(/OPENAI_API_KEY/);
    expect(() => loadPipelineConfig({ VOICE_PROVIDER: 'elevenlabs' })).toThrow(/ELEVENLABS_API_KEY/);
    expect(() => loadPipelineConfig({ AZURE_SPEECH_KEY: 'k' })).toThrow(/AZURE_SPEECH_REGION/);
    expect(() => loadPipelineConfig({ IMAGE_PROVIDER: 'pexels' })).toThrow('IMAGE_PROVIDER=pexels needs PEXELS_API_KEY.');
    expect(() => loadPipelineConfig({ IMAGE_PROVIDER: 'unsplash', PEXELS_API_KEY: 'p' })).toThrow(
      'IMAGE_PROVIDER=unsplash needs UNSPLASH_ACCESS_KEY.',
    );
  });

  it('offers each stock library it has a key for, and uses the one IMAGE_PROVIDER names', () => {
    const config = loadPipelineConfig({ IMAGE_PROVIDER: 'unsplash', PEXELS_API_KEY: 'p', UNSPLASH_ACCESS_KEY: 'u' });
    expect(config.images).toEqual({ provider: 'unsplash', apiKey: 'u' });
    expect(config.imageChoices?.find((choice) => choice.provider === 'pexels')).toEqual({ provider: 'pexels', apiKey: 'p', videos: true });
    expect(loadPipelineConfig({ PEXELS_API_KEY: 'p', PEXELS_VIDEOS: 'false' }).imageChoices?.at(-1)).toEqual({
      provider: 'pexels',
      apiKey: 'p',
      videos: false,
    });
    expect(() => loadPipelineConfig({ PEXELS_VIDEOS: 'sometimes' })).toThrow(/PEXELS_VIDEOS/);
    for (const [value, videos] of [
      ['0', false],
      ['No', false],
      ['off', false],
      ['1', true],
      ['YES', true],
      ['on', true],
    ] as const)
      expect(loadPipelineConfig({ PEXELS_API_KEY: 'p', PEXELS_VIDEOS: value }).imageChoices?.at(-1), value).toMatchObject({ videos });
    expect(config.imageChoices?.map((choice) => choice.provider)).toEqual(['offline', 'pexels', 'unsplash']);
    expect(loadPipelineConfig({}).imageChoices?.map((choice) => choice.provider)).toEqual(['offline']);
  });

  it('lets a local OpenAI-compatible server run without a key and shares the connection with images', () => {
    const config = loadPipelineConfig({
      STORY_PROVIDER: 'openai',
      IMAGE_PROVIDER: 'openai',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_MODEL: 'llama3.1',
    });
    expect(config.story).toMatchObject({ provider: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' });
    expect(config.images).toMatchObject({ provider: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'gpt-image-1' });
  });

  it('enables the voice providers whose keys are present', () => {
    const config = loadPipelineConfig({ AZURE_SPEECH_KEY: 'k', AZURE_SPEECH_REGION: 'eastus', ELEVENLABS_API_KEY: 'e' });
    expect(config.voice.azure).toEqual({ key: 'k', region: 'eastus' });
    expect(config.voice.elevenlabs).toMatchObject({ apiKey: 'e', modelId: 'eleven_multilingual_v2' });
  });
});
