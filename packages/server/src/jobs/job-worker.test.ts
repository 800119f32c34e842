import { MESSAGES, SERVICE_UNAVAILABLE_MESSAGES } from '@reelsmith/contracts';
import { ProviderError } from '@reelsmith/pipeline';
import { GenerationError } from '@reelsmith/pipeline';
import { describe, expect, it } from 'vitest';
import { userFacingError } from './job-worker.js';

const unreachable = () =>
  new ProviderError(
    'Could not reach the voice service (connection refused); check the service address and the network',
    'elevenlabs',
    true,
  );

describe('userFacingError', () => {
  it('gives the creator a creator message when the voice service is unreachable, not the operator one', () => {
    const error = new GenerationError('voice', unreachable().message, true, { cause: unreachable() });
    expect(userFacingError(error)).toBe(SERVICE_UNAVAILABLE_MESSAGES.voice);
    expect(userFacingError(error)).toMatch(/^The voice service is unavailable/);
    expect(userFacingError(error)).not.toContain('service address');
  });

  it('treats a rejected key, a missing model and a 5xx as the service being unavailable', () => {
    for (const status of [401, 404, 503]) {
      const cause = new ProviderError(`The story service failed (HTTP ${status})`, 'openai', status === 503, status);
      expect(userFacingError(new GenerationError('story', cause.message, false, { cause }))).toBe(SERVICE_UNAVAILABLE_MESSAGES.story);
    }
    expect(userFacingError(unreachable())).toBe(SERVICE_UNAVAILABLE_MESSAGES.other);
  });

  it.each([
    ['story', /^The story writer is unavailable/],
    ['voice', /^The voice service is unavailable/],
    ['images', /^The picture service is unavailable/],
  ] as const)('names the %s step as the one whose service failed, and no other', (step, named) => {
    const cause = new ProviderError('Could not reach the service (connection refused)', 'fake', true);
    const message = userFacingError(new GenerationError(step, cause.message, true, { cause }));
    expect(message).toMatch(named);
    for (const other of Object.values(SERVICE_UNAVAILABLE_MESSAGES).filter((text) => text !== message)) expect(message).not.toBe(other);
  });

  it('names the video step when the render fails', () => {
    const error = new GenerationError('video', 'Something went wrong while assembling the video (ffmpeg failed). Please try again.', true);
    expect(userFacingError(error)).toMatch(/assembling the video/);
  });

  it("keeps a refusal of the creator's own input, which says what to change", () => {
    const cause = new ProviderError('The image service refused this prompt. Try rewording the topic.', 'openai', false, 400);
    expect(userFacingError(new GenerationError('images', cause.message, false, { cause }))).toBe(cause.message);
  });

  it('never shows an unexpected error', () => {
    expect(userFacingError(new Error('EIO at /srv/data'))).toBe(MESSAGES.generationUnexpectedError);
  });
});
