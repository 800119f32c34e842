import { describe, expect, it } from 'vitest';
import {
  API,
  VALIDATION_MESSAGES,
  buildPath,
  generateVideoBodySchema,
  generationFormSchema,
  registerFormSchema,
  toGenerateVideoBody,
} from './index.js';

describe('registration form', () => {
  it('reports the spec messages for each bad field', () => {
    const result = registerFormSchema.safeParse({ name: 'A', email: 'nope', password: '123', confirmPassword: '' });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(messages).toMatchObject({
      name: VALIDATION_MESSAGES.nameTooShort,
      email: VALIDATION_MESSAGES.emailInvalid,
      password: VALIDATION_MESSAGES.passwordTooShort,
      confirmPassword: VALIDATION_MESSAGES.confirmPasswordRequired,
    });
  });

  it('rejects mismatched passwords on confirmPassword', () => {
    const result = registerFormSchema.safeParse({ name: 'Asha', email: 'a@b.co', password: '123456', confirmPassword: '1234567' });
    expect(result.error?.issues[0]).toMatchObject({ path: ['confirmPassword'], message: VALIDATION_MESSAGES.passwordsDoNotMatch });
  });
});

describe('generation form', () => {
  const form = {
    topic: 'Lost cities',
    style: 'custom',
    customStyle: '',
    language: 'en',
    duration: 30,
    voice: 'en-f1',
    visualStyle: 'cinematic',
    resolution: '9:16',
    customPrompt: '',
    enableZoom: true,
    zoomDirection: 'in',
    enableCaptions: false,
    captionStyle: 'tiktok',
  } as const;

  it('requires the custom style text when style is custom', () => {
    const result = generationFormSchema.safeParse(form);
    expect(result.error?.issues[0]).toMatchObject({ path: ['customStyle'], message: VALIDATION_MESSAGES.customStyleRequired });
  });

  it('sends the custom style text in place of "custom"', () => {
    const parsed = generationFormSchema.parse({ ...form, customStyle: 'noir detective' });
    const body = toGenerateVideoBody(parsed);
    expect(body.style).toBe('noir detective');
    expect(generateVideoBodySchema.parse(body).style).toBe('noir detective');
  });

  it('refuses a duration outside 30, 60, 90', () => {
    expect(generateVideoBodySchema.safeParse({ ...form, style: 'funny', duration: 45 }).success).toBe(false);
  });
});

describe('generate request body', () => {
  const body = { topic: 'Lost cities', style: 'funny', language: 'en', duration: 30, voice: 'en-f1' };
  const firstIssue = (input: unknown) => generateVideoBodySchema.safeParse(input).error?.issues[0];

  it('answers a missing language or duration with the spec messages', () => {
    expect(firstIssue({ ...body, language: undefined })).toMatchObject({
      path: ['language'],
      message: VALIDATION_MESSAGES.languageRequired,
    });
    expect(firstIssue({ ...body, language: '' })).toMatchObject({ path: ['language'], message: VALIDATION_MESSAGES.languageRequired });
    expect(firstIssue({ ...body, duration: undefined })).toMatchObject({
      path: ['duration'],
      message: VALIDATION_MESSAGES.durationRequired,
    });
    expect(firstIssue({ ...body, duration: 45 })?.message).toBe('Duration must be one of 30, 60, 90 seconds');
  });

  it('refuses style "custom" without its text and substitutes it when given', () => {
    expect(firstIssue({ ...body, style: 'custom' })).toMatchObject({
      path: ['customStyle'],
      message: VALIDATION_MESSAGES.customStyleRequired,
    });
    const parsed = generateVideoBodySchema.parse({ ...body, style: 'custom', customStyle: ' noir detective ' });
    expect(parsed.style).toBe('noir detective');
    expect(parsed).not.toHaveProperty('customStyle');
    expect(generateVideoBodySchema.parse({ ...body, customStyle: 'ignored' })).not.toHaveProperty('customStyle');
  });

  it('says how long a topic may be rather than that it is missing', () => {
    expect(firstIssue({ ...body, topic: 'x'.repeat(501) })).toMatchObject({
      path: ['topic'],
      message: 'Topic must be at most 500 characters',
    });
  });

  it("renders captions: 'file' without burned-in captions and keeps enableCaptions working alone", () => {
    expect(generateVideoBodySchema.parse({ ...body, captions: 'file' })).toMatchObject({ captions: 'file', enableCaptions: false });
    expect(generateVideoBodySchema.parse({ ...body, captions: 'file', enableCaptions: false }).enableCaptions).toBe(false);
    expect(generateVideoBodySchema.parse({ ...body, captions: 'burned' }).enableCaptions).toBe(true);
    expect(generateVideoBodySchema.parse({ ...body, enableCaptions: true })).not.toHaveProperty('captions');
    expect(generateVideoBodySchema.parse({ ...body, enableCaptions: true }).enableCaptions).toBe(true);
    expect(generateVideoBodySchema.parse(body).enableCaptions).toBe(false);
    // Parsing what was stored gives the same params (the server re-reads stored jobs with this schema).
    const stored = generateVideoBodySchema.parse({ ...body, captions: 'file' });
    expect(generateVideoBodySchema.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
  });

  it('refuses captions and enableCaptions that contradict each other, naming the field', () => {
    expect(firstIssue({ ...body, captions: 'file', enableCaptions: true })).toMatchObject({
      path: ['captions'],
      message: 'enableCaptions contradicts captions: leave enableCaptions out',
    });
    expect(firstIssue({ ...body, captions: 'burned', enableCaptions: false })?.path).toEqual(['captions']);
    expect(firstIssue({ ...body, captions: 'subtitles' })?.path).toEqual(['captions']);
  });

  it('turns the studio form with captions as files into a request without burned-in captions', () => {
    const studio = {
      ...body,
      customStyle: '',
      visualStyle: 'cinematic',
      resolution: '9:16',
      customPrompt: '',
      enableZoom: true,
      zoomDirection: 'in',
    };
    const asFile = toGenerateVideoBody(
      generationFormSchema.parse({ ...studio, enableCaptions: true, captionStyle: 'tiktok', captions: 'file' }),
    );
    expect(asFile).toMatchObject({ enableCaptions: false, captions: 'file' });
    expect(generateVideoBodySchema.safeParse(asFile).success).toBe(true);
    const burned = toGenerateVideoBody(generationFormSchema.parse({ ...studio, enableCaptions: true, captionStyle: 'tiktok' }));
    expect(burned.enableCaptions).toBe(true);
    expect(burned).not.toHaveProperty('captions');
    const off = toGenerateVideoBody(
      generationFormSchema.parse({ ...studio, enableCaptions: false, captionStyle: 'tiktok', captions: 'file' }),
    );
    expect(off).not.toHaveProperty('captions');
  });
});

describe('route registry', () => {
  it('has unique method and path pairs', () => {
    const keys = Object.values(API).map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('fills and encodes path parameters', () => {
    expect(buildPath(API.videoStatus.path, { id: 'a/b' })).toBe('/api/videos/a%2Fb/status');
    expect(() => buildPath(API.videoStatus.path, {})).toThrow(/id/);
  });
});
