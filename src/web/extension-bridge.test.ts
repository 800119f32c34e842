import { EXTENSION_HANDOFF_MESSAGES } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { createWebExtensionBridge, type WebPageRuntime } from './extension-bridge.js';

const CODE = 'k'.repeat(43);

function runtime(answer: (message: unknown) => unknown, lastError?: string): WebPageRuntime & { sent: unknown[][] } {
  const sent: unknown[][] = [];
  const value: WebPageRuntime & { sent: unknown[][] } = {
    sent,
    sendMessage(id, message, callback) {
      sent.push([id, message]);
      value.lastError = lastError ? { message: lastError } : undefined;
      callback(answer(message));
    },
  };
  return value;
}

describe('web extension bridge', () => {
  it('pings the extension by id and hands over only the code', async () => {
    const fake = runtime((m) => ((m as { type: string }).type === 'ping' ? { ok: true, version: '0.1.0' } : { ok: true }));
    const bridge = createWebExtensionBridge({ extensionId: 'ext-id', storeUrl: 'https://store', runtime: () => fake });
    expect(await bridge.isInstalled()).toBe(true);
    await bridge.sendHandoffCode(CODE);
    expect(fake.sent).toEqual([
      ['ext-id', { type: 'ping' }],
      ['ext-id', { type: 'handoff', code: CODE }],
    ]);
  });

  it('reports a missing extension and the extension’s refusal', async () => {
    const absent = createWebExtensionBridge({ extensionId: 'x', storeUrl: '', runtime: () => undefined });
    expect(await absent.isInstalled()).toBe(false);
    await expect(absent.sendHandoffCode(CODE)).rejects.toThrow(EXTENSION_HANDOFF_MESSAGES.notInstalled);
    const notListening = createWebExtensionBridge({
      extensionId: 'x',
      storeUrl: '',
      runtime: () => runtime(() => undefined, 'Could not establish connection.'),
    });
    expect(await notListening.isInstalled()).toBe(false);
    const refusing = createWebExtensionBridge({
      extensionId: 'x',
      storeUrl: '',
      runtime: () => runtime(() => ({ ok: false, error: 'expired' })),
    });
    await expect(refusing.sendHandoffCode(CODE)).rejects.toThrow('expired');
  });
});
