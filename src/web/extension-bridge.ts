import {
  EXTENSION_HANDOFF_MESSAGES,
  extensionResponseSchema,
  type ExtensionExternalRequest,
  type ExtensionResponse,
} from '@reelsmith/contracts';
import type { ExtensionBridge } from '@reelsmith/studio';

/** chrome.runtime as a web page sees it: present only when an installed extension lists this origin. */
export interface WebPageRuntime {
  sendMessage(extensionId: string, message: unknown, callback: (response: unknown) => void): void;
  lastError?: { message?: string } | undefined;
}

/**
 * The web app's side of the extension hand-off (Platform.extension). Only a one-time code is ever
 * sent; the page's own long-lived token never leaves it.
 */
export function createWebExtensionBridge(options: {
  extensionId: string;
  storeUrl: string;
  runtime: () => WebPageRuntime | undefined;
}): ExtensionBridge {
  const send = (message: ExtensionExternalRequest): Promise<ExtensionResponse> =>
    new Promise((resolve, reject) => {
      const runtime = options.runtime();
      if (!runtime?.sendMessage) {
        reject(new Error(EXTENSION_HANDOFF_MESSAGES.notInstalled));
        return;
      }
      try {
        runtime.sendMessage(options.extensionId, message, (response) => {
          // Reading lastError marks it handled; it is set when no such extension listens.
          if (runtime.lastError) {
            reject(new Error(EXTENSION_HANDOFF_MESSAGES.notInstalled));
            return;
          }
          const parsed = extensionResponseSchema.safeParse(response);
          if (parsed.success) resolve(parsed.data);
          else reject(new Error(EXTENSION_HANDOFF_MESSAGES.failed));
        });
      } catch {
        reject(new Error(EXTENSION_HANDOFF_MESSAGES.notInstalled));
      }
    });

  return {
    storeUrl: options.storeUrl,
    async isInstalled() {
      try {
        return (await send({ type: 'ping' })).ok;
      } catch {
        return false;
      }
    },
    async sendHandoffCode(code) {
      const response = await send({ type: 'handoff', code });
      if (!response.ok) throw new Error(response.error);
    },
  };
}
