import type { CanGenerateResponse } from '@reelsmith/contracts';
import type { ApiClient } from '../../api/api-client.js';

/** GET /payments/can-generate, for a duration when one is given: the studio's query and the popup's reads both make it. */
export function askCanGenerate(api: ApiClient, duration?: number, signal?: AbortSignal): Promise<CanGenerateResponse> {
  return api.call('canGenerate', { ...(duration === undefined ? {} : { query: { duration } }), signal });
}
