import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultVoiceProvider } from './voice-settings.js';

describe('defaultVoiceProvider: what a fresh install narrates with', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is the natural voices when nothing names a provider (npm start on its defaults)', () => {
    vi.stubEnv('VOICE_PROVIDER', undefined);
    expect(defaultVoiceProvider({})).toBe('neural');
    expect(defaultVoiceProvider({ VOICE_PROVIDER: 'not-a-provider' })).toBe('neural');
  });

  it('follows VOICE_PROVIDER: the environment passed first, else the process', () => {
    vi.stubEnv('VOICE_PROVIDER', 'offline');
    expect(defaultVoiceProvider({})).toBe('offline');
    expect(defaultVoiceProvider({ VOICE_PROVIDER: 'neural' })).toBe('neural');
    vi.stubEnv('VOICE_PROVIDER', undefined);
    expect(defaultVoiceProvider({ VOICE_PROVIDER: 'offline' })).toBe('offline');
  });
});
