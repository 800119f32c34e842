import { describe, expect, it } from 'vitest';
import { apiUrl, isDesktopChromeUserAgent } from './platform.js';
import { guardWindowUnload } from './window-unload.js';

const UA = {
  chromeDesktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

describe('platform helpers', () => {
  it('recognises desktop Chrome only (not mobile, Opera or Edge)', () => {
    expect(isDesktopChromeUserAgent(UA.chromeDesktop)).toBe(true);
    for (const ua of [UA.chromeAndroid, UA.chromeIos, UA.edge, UA.opera, UA.firefox]) expect(isDesktopChromeUserAgent(ua)).toBe(false);
  });

  it('resolves API paths against the API host', () => {
    expect(apiUrl({ apiBaseUrl: '' }, '/output/a.mp4')).toBe('/output/a.mp4');
    expect(apiUrl({ apiBaseUrl: 'http://localhost:8080' }, 'contact.html')).toBe('http://localhost:8080/contact.html');
    expect(apiUrl({ apiBaseUrl: 'http://localhost:8080' }, 'https://cdn.example/x.mp4')).toBe('https://cdn.example/x.mp4');
  });

  it('makes the page ask before unloading until released', () => {
    const target = new EventTarget();
    // A browser's BeforeUnloadEvent has a writable returnValue; Node's plain Event does not.
    class BeforeUnload extends Event {
      override returnValue = true;
    }
    const unloading = () => {
      const event = new BeforeUnload('beforeunload', { cancelable: true });
      target.dispatchEvent(event);
      return event.defaultPrevented;
    };
    const release = guardWindowUnload(target as unknown as Window);
    expect(unloading()).toBe(true);
    release();
    expect(unloading()).toBe(false);
  });
});
