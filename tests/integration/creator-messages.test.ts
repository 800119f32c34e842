import * as contracts from '@reelsmith/contracts';
import { CONTENT_POLICY_MESSAGE, GenerationError, ProviderError, sourceLanguageMismatchMessage } from '@reelsmith/pipeline';
import {
  AUTH_MESSAGES,
  CLAIMED_ACCOUNT_MESSAGE,
  GENERATION_STARTED_MESSAGE,
  GOOGLE_MESSAGES,
  NOT_AN_ARTICLE_MESSAGE,
  PAGE_MESSAGES,
  PAYMENT_MESSAGES,
  PRIVATE_ADDRESS_MESSAGE,
  RETRY_STARTED_MESSAGE,
  STORAGE_WRITE_FAILED_MESSAGE,
  UPLOADS_BUSY_MESSAGE,
  userFacingError,
  VIDEO_DELETED_MESSAGE,
  WEBHOOK_LIMIT_MESSAGE,
} from '@reelsmith/server/testing';
import { describe, expect, it } from 'vitest';
import { PAGE_ARTICLE_MESSAGES } from '../../src/extension-host/page-article.js';
import { API_ORIGIN_MESSAGES } from '../../src/options/api-origin-settings.js';

/*
 * Every text a creator can be shown (studio, popup, side panel, embed, webhooks, MCP: they all show
 * the same messages) speaks the creator's language: no route, method, query or route parameter, no
 * field or variable name. The developer-only texts (an API call without its key, the operator's
 * configuration) are left out on purpose: they are read by whoever writes the call.
 */

const DEVELOPER_TALK: [string, RegExp][] = [
  ['an HTTP method and path', /\b(GET|POST|PUT|PATCH|DELETE)\s+\//],
  ['an API route', /\/api\//],
  ['a query parameter', /[?&][a-z_]+=/],
  ['a route parameter', /\/:[a-z]/],
  ['a camelCase name', /\b[a-z]+[A-Z][A-Za-z]*\b/],
  ['a snake_case name', /\b[a-z]+_[a-z_]+\b/],
  ['an environment variable', /\b[A-Z]+_[A-Z_]+\b/],
];

/** Sample arguments for a message that is a function: numbers first, text when a number will not do. */
function sampleTexts(message: (...args: never[]) => unknown): unknown[] {
  const arity = Math.max(1, message.length);
  for (const sample of [2, 'sample']) {
    try {
      return [(message as (...args: unknown[]) => unknown)(...Array<unknown>(arity).fill(sample))];
    } catch {
      // The next kind of sample.
    }
  }
  return [];
}

/** Every string in a message collection (nested objects, and functions called with sample arguments). */
function texts(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') return sampleTexts(value as (...args: never[]) => unknown).flatMap((text) => texts(text, `${path}()`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => texts(inner, `${path}.${key}`));
  return [];
}

const contractMessages = Object.entries(contracts).filter(([name]) => /MESSAGES?$/.test(name));

const failure = (step: 'setup' | 'story' | 'voice' | 'images' | 'video') => {
  const cause = new ProviderError('Could not reach the service (connection refused)', 'fake', true);
  return userFacingError(new GenerationError(step, cause.message, true, { cause }));
};

const CREATOR_TEXTS: [string, unknown][] = [
  ...contractMessages,
  ['AUTH_MESSAGES', AUTH_MESSAGES],
  ['GOOGLE_MESSAGES', GOOGLE_MESSAGES],
  ['CLAIMED_ACCOUNT_MESSAGE', CLAIMED_ACCOUNT_MESSAGE],
  ['PAGE_MESSAGES', PAGE_MESSAGES],
  ['NOT_AN_ARTICLE_MESSAGE', NOT_AN_ARTICLE_MESSAGE],
  ['PAYMENT_MESSAGES', PAYMENT_MESSAGES],
  ['PRIVATE_ADDRESS_MESSAGE', PRIVATE_ADDRESS_MESSAGE],
  ['WEBHOOK_LIMIT_MESSAGE', WEBHOOK_LIMIT_MESSAGE],
  ['UPLOADS_BUSY_MESSAGE', UPLOADS_BUSY_MESSAGE],
  ['STORAGE_WRITE_FAILED_MESSAGE', STORAGE_WRITE_FAILED_MESSAGE],
  ['GENERATION_STARTED_MESSAGE', GENERATION_STARTED_MESSAGE],
  ['RETRY_STARTED_MESSAGE', RETRY_STARTED_MESSAGE],
  ['VIDEO_DELETED_MESSAGE', VIDEO_DELETED_MESSAGE],
  ['CONTENT_POLICY_MESSAGE', CONTENT_POLICY_MESSAGE],
  ['sourceLanguageMismatchMessage', sourceLanguageMismatchMessage('script', 'hi', 'en')],
  ['failed steps', (['setup', 'story', 'voice', 'images', 'video'] as const).map(failure)],
  ['PAGE_ARTICLE_MESSAGES', PAGE_ARTICLE_MESSAGES],
  ['API_ORIGIN_MESSAGES', API_ORIGIN_MESSAGES],
];

describe('creator-facing messages', () => {
  it('are all found: the contracts export their message collections', () => {
    expect(contractMessages.map(([name]) => name)).toEqual(
      expect.arrayContaining(['MESSAGES', 'STORYBOARD_MESSAGES', 'SVG_UPLOAD_MESSAGES']),
    );
    expect(CREATOR_TEXTS.flatMap(([name, value]) => texts(value, name)).length).toBeGreaterThan(150);
  });

  it('name no route, method, parameter, field or variable', () => {
    const offending = CREATOR_TEXTS.flatMap(([name, value]) => texts(value, name)).flatMap(([path, text]) =>
      DEVELOPER_TALK.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${path} names ${what}: ${text}`),
    );
    expect(offending).toEqual([]);
  });

  it('catch the message the issue reported', () => {
    const reported =
      'SVG pictures are accepted only as a logo (POST /api/uploads?purpose=logo). For a scene, upload a PNG, JPEG or WebP picture.';
    expect(DEVELOPER_TALK.filter(([, pattern]) => pattern.test(reported)).map(([what]) => what)).toEqual([
      'an HTTP method and path',
      'an API route',
      'a query parameter',
    ]);
  });
});
