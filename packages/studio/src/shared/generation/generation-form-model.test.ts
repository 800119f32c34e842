import { SOURCE_MESSAGES, VALIDATION_MESSAGES } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { INITIAL_VIDEO_DEFAULTS } from '../../preferences/video-defaults.js';
import {
  generationRequest,
  initialFormValues,
  isSubmitBlocked,
  STUDIO_DEFAULTS,
  submitButtonText,
  validateForm,
} from './generation-form-model.js';

const state = (over: Partial<Parameters<typeof submitButtonText>[0]> = {}) => ({
  signedIn: true,
  phase: 'idle' as const,
  generating: false,
  activeJobs: 0,
  ...over,
});

describe('generation form model', () => {
  it('reads each submit state, the first that applies winning', () => {
    expect(submitButtonText(state({ signedIn: false, activeJobs: 3 }))).toBe('Try Free Demo - Sign Up Required!');
    expect(submitButtonText(state({ phase: 'checking', activeJobs: 1 }))).toBe('Submitting...');
    expect(submitButtonText(state({ phase: 'generating' }))).toBe('Generating...');
    expect(submitButtonText(state({ generating: true }))).toBe('Generating...');
    expect(submitButtonText(state({ phase: 'started', activeJobs: 1 }))).toBe('Starting...');
    expect(submitButtonText(state({ activeJobs: 2 }))).toBe('Processing (2 video(s))...');
    expect(submitButtonText(state())).toBe('Generate Video');
  });

  it('blocks while submitting, generating or with any active job, never for visitors', () => {
    expect(isSubmitBlocked(state())).toBe(false);
    expect(isSubmitBlocked(state({ phase: 'checking' }))).toBe(true);
    expect(isSubmitBlocked(state({ phase: 'started' }))).toBe(true);
    expect(isSubmitBlocked(state({ generating: true }))).toBe(true);
    expect(isSubmitBlocked(state({ activeJobs: 1 }))).toBe(true);
    expect(isSubmitBlocked(state({ signedIn: false, activeJobs: 1 }))).toBe(false);
  });

  it('gives one contract message per invalid field', () => {
    expect(validateForm(STUDIO_DEFAULTS)).toEqual({
      topic: VALIDATION_MESSAGES.topicRequired,
      language: VALIDATION_MESSAGES.languageRequired,
      voice: VALIDATION_MESSAGES.voiceRequired,
    });
    expect(validateForm({ ...STUDIO_DEFAULTS, topic: 'Moon', language: 'en', voice: 'v', style: 'custom', customStyle: '  ' })).toEqual({
      customStyle: VALIDATION_MESSAGES.customStyleRequired,
    });
    expect(validateForm({ ...STUDIO_DEFAULTS, topic: 'Moon', language: 'en', voice: 'v' })).toEqual({});
  });

  it('makes the topic optional with a script or an article, and checks the source instead', () => {
    const ready = { ...STUDIO_DEFAULTS, language: 'en', voice: 'v' };
    expect(validateForm({ ...ready, source: { choice: 'script', text: 'Bees dance to point at flowers.', page: null } })).toEqual({});
    expect(validateForm({ ...ready, source: { choice: 'script', text: '  ', page: null } })).toEqual({
      source: SOURCE_MESSAGES.scriptRequired,
    });
    expect(validateForm({ ...ready, source: { choice: 'article', text: '', page: null } })).toEqual({
      source: SOURCE_MESSAGES.articleRequired,
    });
    // A topic typed beside a source is still checked.
    expect(validateForm({ ...ready, topic: 'x'.repeat(501), source: { choice: 'script', text: 'Words.', page: null } })).toHaveProperty(
      'topic',
    );
    // Back on Topic, the topic is required again.
    expect(validateForm({ ...ready, source: { choice: 'topic', text: 'Words.', page: null } })).toEqual({
      topic: VALIDATION_MESSAGES.topicRequired,
    });
  });

  it('sends a script as a script source, a lone link as a url source, pasted text or a read page as an article', () => {
    const ready = { ...STUDIO_DEFAULTS, language: 'en', voice: 'v' };
    const script = generationRequest({
      ...ready,
      source: { choice: 'script', text: 'Bees dance. The dance points to flowers.', page: null },
    });
    expect(script).toMatchObject({ topic: 'Bees dance.', source: { kind: 'script', text: 'Bees dance. The dance points to flowers.' } });
    const link = generationRequest({ ...ready, source: { choice: 'article', text: ' https://example.com/bees ', page: null } }, 'offline');
    expect(link).toMatchObject({ source: { kind: 'url', url: 'https://example.com/bees' }, voiceProvider: 'offline' });
    const page = generationRequest({
      ...ready,
      topic: 'Honeybees',
      source: { choice: 'article', text: 'Bees dance.', page: { title: 'Why bees dance', url: 'https://example.com/bees' } },
    });
    expect(page).toMatchObject({
      topic: 'Honeybees',
      source: { kind: 'article', text: 'Bees dance.', title: 'Why bees dance', url: 'https://example.com/bees' },
    });
    const pasted = generationRequest({ ...ready, source: { choice: 'article', text: 'See https://example.com for more.', page: null } });
    expect(pasted?.source).toEqual({ kind: 'article', text: 'See https://example.com for more.' });
    // A topic video carries no source; an invalid form no request.
    expect(generationRequest({ ...ready, topic: 'Moon' })).not.toHaveProperty('source');
    expect(generationRequest({ ...ready, source: { choice: 'script', text: '', page: null } })).toBeNull();
  });

  it('starts from the studio defaults unless Video Defaults were saved', () => {
    expect(initialFormValues(null)).toMatchObject({
      style: 'mysterious',
      language: '',
      duration: 30,
      visualStyle: 'cinematic',
      resolution: '9:16',
      enableZoom: true,
      zoomDirection: 'in',
      enableCaptions: false,
      captionStyle: 'tiktok',
    });
    expect(initialFormValues({ ...INITIAL_VIDEO_DEFAULTS, defaultLanguage: 'hi', defaultDuration: 60 })).toMatchObject({
      language: 'hi',
      duration: 60,
      style: 'mysterious',
    });
  });
});
