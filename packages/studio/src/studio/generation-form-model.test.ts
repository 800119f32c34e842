import { VALIDATION_MESSAGES } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { INITIAL_VIDEO_DEFAULTS } from '../preferences/video-defaults.js';
import { initialFormValues, isSubmitBlocked, STUDIO_DEFAULTS, submitButtonText, validateForm } from './generation-form-model.js';

const state = (over: Partial<Parameters<typeof submitButtonText>[0]> = {}) => ({ signedIn: true, phase: 'idle' as const, generating: false, activeJobs: 0, ...over });

describe('generation form model', () => {
  it('reads each submit state in the order of spec section 4', () => {
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

  it('starts from the studio defaults unless Video Defaults were saved', () => {
    expect(initialFormValues(null)).toMatchObject({ style: 'mysterious', language: '', duration: 30, visualStyle: 'cinematic', resolution: '9:16', enableZoom: true, zoomDirection: 'in', enableCaptions: false, captionStyle: 'tiktok' });
    expect(initialFormValues({ ...INITIAL_VIDEO_DEFAULTS, defaultLanguage: 'hi', defaultDuration: 60 })).toMatchObject({ language: 'hi', duration: 60, style: 'mysterious' });
  });
});
