/**
 * Connecting a platform happens in a new tab (its consent page), which lands on Settings there: the
 * tab the creator started from hears it on this channel and reloads its connections, instead of
 * showing "Not connected" until reloaded.
 */
const CHANNEL = 'reelsmith-connections';

/** Tells the studio's other tabs that the connections changed (a consent came back). */
export function announceConnectionsChanged(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: 'connections-changed' });
  channel.close();
}

/** Calls `onChange` when another tab announces a change; returns the unsubscribe. */
export function onConnectionsChanged(onChange: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if ((event.data as { type?: unknown } | null)?.type === 'connections-changed') onChange();
  };
  return () => channel.close();
}
