import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, redactQuery } from './logger.js';

describe('the request log', () => {
  it('blanks the values of OAuth callback parameters (code, state) and other secrets in a logged URL', () => {
    expect(redactQuery('/api/connections/youtube/callback?state=abc&code=4%2F0Ad&scope=x')).toBe(
      '/api/connections/youtube/callback?state=[redacted]&code=[redacted]&scope=x',
    );
    expect(redactQuery('/auth/verify-email?token=secret')).toBe('/auth/verify-email?token=[redacted]');
    expect(redactQuery('/api/videos?limit=5')).toBe('/api/videos?limit=5');
  });

  it("never writes a callback's code or state to the log", async () => {
    const lines: string[] = [];
    const app = Fastify({ loggerInstance: createLogger('info', { write: (line: string) => void lines.push(line) }) });
    app.get('/api/connections/:platform/callback', async () => 'ok');
    await app.inject({ method: 'GET', url: '/api/connections/tiktok/callback?code=SECRET-CODE&state=SECRET-STATE' });
    await app.close();
    const text = lines.join('\n');
    expect(text).toContain('/api/connections/tiktok/callback?code=[redacted]&state=[redacted]');
    expect(text).not.toContain('SECRET-CODE');
    expect(text).not.toContain('SECRET-STATE');
  });
});
