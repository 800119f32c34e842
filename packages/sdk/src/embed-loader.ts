/**
 * GET /embed.js: one script tag on a partner page gives it `Reelsmith.mount(element, options)`.
 * No React and no runtime imports (kept far under 8 KB gzip); the studio itself runs in an iframe
 * served by Reelsmith at /embed, so the partner page never sees the creator's token. Messages are
 * accepted only from that iframe's window and origin, and sent only to it.
 */
import { EMBED_EVENT_TYPES, type EmbedEvent, type EmbedHandle, type EmbedMountOptions, type ReelsmithEmbed } from './embed-types.js';

const SOURCE = 'reelsmith-embed';
const EVENT_TYPES = new Set<string>(EMBED_EVENT_TYPES);

// The origin this script was loaded from is the studio's origin.
const script = document.currentScript as HTMLScriptElement | null;
const studioOrigin = new URL(script?.src ?? window.location.href).origin;

function isEmbedEvent(data: unknown): data is { source: string; event: EmbedEvent } {
  if (typeof data !== 'object' || data === null) return false;
  const { source, event } = data as { source?: unknown; event?: { type?: unknown } };
  return source === SOURCE && typeof event === 'object' && event !== null && EVENT_TYPES.has(String(event.type));
}

function mount(element: HTMLElement, options: EmbedMountOptions = {}): EmbedHandle {
  if (!(element instanceof HTMLElement)) throw new TypeError('Reelsmith.mount: pass the element to render the studio in');
  const query = new URLSearchParams({
    mode: options.mode ?? 'studio',
    theme: options.theme ?? 'dark',
    parentOrigin: window.location.origin,
  });
  if (options.topic) query.set('topic', options.topic);
  const frame = document.createElement('iframe');
  // The token goes in the fragment: never sent to a server, never in a Referer.
  frame.src = `${studioOrigin}/embed?${query.toString()}${options.sessionToken ? `#session=${encodeURIComponent(options.sessionToken)}` : ''}`;
  frame.title = 'Reelsmith video studio';
  frame.allow = 'clipboard-write; fullscreen';
  frame.setAttribute('scrolling', 'no');
  frame.style.cssText = 'display:block;width:100%;height:640px;border:0;overflow:hidden;color-scheme:normal;';
  element.appendChild(frame);

  let ready = false;
  let waitingTopic: string | null = null;
  const sendTopic = (topic: string) =>
    frame.contentWindow?.postMessage({ source: SOURCE, command: { type: 'set-topic', topic: topic.slice(0, 500) } }, studioOrigin);

  const onMessage = (message: MessageEvent) => {
    if (message.origin !== studioOrigin || message.source !== frame.contentWindow || !isEmbedEvent(message.data)) return;
    const event = message.data.event;
    if (event.type === 'ready') {
      ready = true;
      if (waitingTopic !== null) sendTopic(waitingTopic);
      waitingTopic = null;
    }
    if (event.type === 'resize' && typeof event.height === 'number' && event.height > 0)
      frame.style.height = `${Math.ceil(event.height)}px`;
    try {
      options.onEvent?.(event);
    } catch (error) {
      console.error('Reelsmith onEvent handler failed', error);
    }
  };
  window.addEventListener('message', onMessage);

  return {
    unmount() {
      window.removeEventListener('message', onMessage);
      frame.remove();
    },
    setTopic(text: string) {
      // Before the studio says ready, the message would be lost: keep the latest and send it then.
      if (ready) sendTopic(String(text));
      else waitingTopic = String(text);
    },
  };
}

const api: ReelsmithEmbed = { mount };
window.Reelsmith = api;
