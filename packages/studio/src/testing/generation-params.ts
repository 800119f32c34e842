import type { GenerationParams } from '@reelsmith/contracts';

/** A submitted video's parameters for tests: a 30-second educational English short, with what the test cares about. */
export function testGenerationParams(overrides: Partial<GenerationParams> = {}): GenerationParams {
  return {
    topic: 'Comets',
    style: 'educational',
    language: 'en',
    duration: 30,
    voice: 'en-f-1',
    visualStyle: 'cinematic',
    resolution: '9:16',
    customPrompt: '',
    enableZoom: true,
    zoomDirection: 'in',
    enableCaptions: false,
    captionStyle: 'tiktok',
    music: 'auto',
    ...overrides,
  };
}
