import { describe, expect, it } from 'vitest';
import { SOURCE_MESSAGES, sourceCredit, topicFromSource } from './source.js';
import { VALIDATION_MESSAGES } from './messages.js';
import { generateVideoBodySchema, videoJobSchema } from './videos.js';

const base = { style: 'educational', language: 'en', duration: 30, voice: 'v1' };
const issues = (body: unknown) => {
  const parsed = generateVideoBodySchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('the source of a generate request', () => {
  it('makes the topic optional, standing in the title, the first sentence or the link', () => {
    expect(generateVideoBodySchema.parse({ ...base, source: { kind: 'article', text: 'Body. More.', title: 'The Title' } }).topic).toBe(
      'The Title',
    );
    expect(generateVideoBodySchema.parse({ ...base, source: { kind: 'script', text: 'First one here! Then more.' } }).topic).toBe(
      'First one here!',
    );
    expect(generateVideoBodySchema.parse({ ...base, source: { kind: 'url', url: 'https://news.example/a' } }).topic).toBe(
      'https://news.example/a',
    );
    expect(generateVideoBodySchema.parse({ ...base, topic: 'Mine', source: { kind: 'script', text: 'Words.' } }).topic).toBe('Mine');
    expect(issues(base)).toEqual([['topic', VALIDATION_MESSAGES.topicRequired]]);
  });

  it('cuts a long first sentence at a word for the topic', () => {
    const topic = topicFromSource({ kind: 'script', text: `${'word '.repeat(80)}end.` });
    expect(topic.length).toBeLessThanOrEqual(201);
    expect(topic.endsWith('word…')).toBe(true);
  });

  it('says what is wrong with a source', () => {
    expect(issues({ ...base, source: { kind: 'script', text: '  ' } })).toEqual([['source.text', SOURCE_MESSAGES.scriptRequired]]);
    expect(issues({ ...base, source: { kind: 'url', url: 'file:///etc/passwd' } })).toEqual([['source.url', SOURCE_MESSAGES.urlInvalid]]);
    expect(issues({ ...base, source: { kind: 'pdf', text: 'x' } })).toEqual([['source.kind', SOURCE_MESSAGES.kindInvalid]]);
    expect(issues({ ...base, source: { kind: 'article', text: 'a\u0000b' } })[0]?.[1]).toBe(
      'The article contains control characters; remove them',
    );
  });

  it("credits the source without its text, in the job's params", () => {
    expect(sourceCredit({ kind: 'article', text: 'Long text', title: 'T', url: 'https://x.example/' })).toEqual({
      kind: 'article',
      title: 'T',
      url: 'https://x.example/',
    });
    expect(sourceCredit({ kind: 'script', text: 'Mine' })).toEqual({ kind: 'script' });
    const job = videoJobSchema.safeParse({
      id: 'j',
      status: 'queued',
      progress: 0,
      currentStep: null,
      stepProgress: 0,
      created_at: 'now',
      result: null,
      error: null,
      params: { topic: 'T', duration: 30, language: 'en', source: { kind: 'url', url: 'https://x.example/', title: 'T' } },
      steps: Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((step) => [step, { status: 'pending', progress: 0 }])),
    });
    expect(job.success).toBe(true);
  });
});
