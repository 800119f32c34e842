import type { EmbedEvent } from '@reelsmith/contracts';

export type { EmbedEvent };

/**
 * The events the loader passes to `onEvent`: every type of the contract's embedEventSchema (a test
 * holds them equal), written out so /embed.js imports nothing at run time.
 */
export const EMBED_EVENT_TYPES: readonly EmbedEvent['type'][] = [
  'ready',
  'signed-in',
  'signed-out',
  'job-created',
  'job-progress',
  'job-completed',
  'job-failed',
  'batch-completed',
  'resize',
];

/** Options of `Reelsmith.mount(element, options)` (GET /embed.js). */
export interface EmbedMountOptions {
  /** From POST /api/embed/sessions, minted by your backend with its API key. Omit to let the creator sign in inside the studio. */
  sessionToken?: string;
  /**
   * 'studio': the full generate form and video list; 'compact': one narrow column. Either way the
   * videos can be previewed and downloaded, not edited: the storyboard editor is the web studio's.
   */
  mode?: 'studio' | 'compact';
  /** Prefills the topic. */
  topic?: string;
  theme?: 'dark' | 'light';
  /** Every event the embedded studio reports (ready, signed-in, job-created, job-progress, job-completed, batch-completed, …). */
  onEvent?: (event: EmbedEvent) => void;
}

export interface EmbedHandle {
  /** Removes the iframe and stops listening. */
  unmount(): void;
  /** Replaces the topic in the studio's form. */
  setTopic(text: string): void;
}

/** `window.Reelsmith` once /embed.js has loaded. */
export interface ReelsmithEmbed {
  mount(element: HTMLElement, options?: EmbedMountOptions): EmbedHandle;
}

declare global {
  interface Window {
    Reelsmith?: ReelsmithEmbed;
  }
}
