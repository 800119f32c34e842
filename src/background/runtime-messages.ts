import {
  extensionExternalRequestSchema,
  extensionRequestSchema,
  type ExtensionExternalRequest,
  type ExtensionRequest,
  type ExtensionResponse,
} from '@reelsmith/contracts';

/**
 * Runtime messages into the worker. The extension's own pages ask it to submit, cancel and
 * refresh; the web app (only from the origins named in externally_connectable) may ping it and hand
 * it a one-time sign-in code. Every message is parsed with the contracts' schemas first.
 */

type Sender = Pick<chrome.runtime.MessageSender, 'id' | 'url' | 'origin' | 'tab'>;
type Reply = (response: ExtensionResponse) => void;

/** From one of this extension's pages (not a content script: the extension has none, and they'd carry a tab). */
export function isOwnPage(sender: Sender, extensionId: string): boolean {
  if (sender.id !== extensionId || !sender.url) return false;
  return sender.url.startsWith(`chrome-extension://${extensionId}/`);
}

/** From a web page whose origin the build allowed. */
export function isAllowedWebPage(sender: Sender, allowedOrigins: readonly string[]): boolean {
  let origin = sender.origin;
  if (!origin && sender.url) {
    try {
      origin = new URL(sender.url).origin;
    } catch {
      return false;
    }
  }
  return origin !== undefined && allowedOrigins.includes(origin);
}

const failure = (error: unknown): ExtensionResponse => ({ ok: false, error: error instanceof Error ? error.message : String(error) });

/** Answers `request` through `reply` and keeps the channel open meanwhile (returns true). */
function answer<R>(request: R, handle: (request: R) => Promise<ExtensionResponse>, reply: Reply): true {
  handle(request).then(reply, (error: unknown) => reply(failure(error)));
  return true;
}

export function createInternalMessageListener(extensionId: string, handle: (request: ExtensionRequest) => Promise<ExtensionResponse>) {
  return (message: unknown, sender: Sender, reply: Reply): boolean => {
    if (!isOwnPage(sender, extensionId)) return false;
    const parsed = extensionRequestSchema.safeParse(message);
    if (!parsed.success) {
      reply({ ok: false, error: 'Unknown request' });
      return false;
    }
    return answer(parsed.data, handle, reply);
  };
}

export function createExternalMessageListener(
  allowedOrigins: readonly string[],
  handle: (request: ExtensionExternalRequest) => Promise<ExtensionResponse>,
) {
  return (message: unknown, sender: Sender, reply: Reply): boolean => {
    if (!isAllowedWebPage(sender, allowedOrigins)) {
      reply({ ok: false, error: 'This site may not talk to the extension' });
      return false;
    }
    const parsed = extensionExternalRequestSchema.safeParse(message);
    if (!parsed.success) {
      reply({ ok: false, error: 'Unknown request' });
      return false;
    }
    return answer(parsed.data, handle, reply);
  };
}
