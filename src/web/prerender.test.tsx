// @vitest-environment jsdom
import { WEB_SHELL } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { renderFirstPaint } from './prerender.js';

describe("index.html's first paint", () => {
  it("is the visitor's Video Studio, inert, beside a copy of the loading splash", () => {
    const container = document.createElement('div');
    container.innerHTML = renderFirstPaint();
    const studio = container.querySelector(`.${WEB_SHELL.prerenderClass}`)!;
    expect(studio.hasAttribute('inert')).toBe(true);
    expect(studio.querySelector('h1')?.textContent).toBe('Create AI videos for social media');
    expect(studio.querySelector('textarea')).not.toBeNull();
    // A visitor has no session to restore: the studio itself, not the splash, is prerendered.
    expect(studio.querySelector('.rs-splash')).toBeNull();
    const splash = container.querySelector(`.${WEB_SHELL.splashWrapperClass}`)!;
    expect(splash.querySelector('[role="status"]')?.getAttribute('aria-label')).toBe('Loading Reelsmith');
  });
});
