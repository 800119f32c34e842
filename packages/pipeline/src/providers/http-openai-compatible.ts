import { ProviderError } from '../errors.js';
import type { ProviderHealthReport } from './types.js';
import {
  parseJsonBody,
  requestWithRetry,
  serviceLabel,
  type ProviderErrorDetails,
  type ProviderTransportOptions,
  type ServiceKind,
} from './http.js';

/**
 * Connection settings shared by every OpenAI-compatible API (OpenAI, Azure OpenAI, Ollama, vLLM,
 * OpenRouter). Azure OpenAI authenticates with an `api-key` header instead of a bearer token and its
 * classic deployment URLs need an `api-version` query parameter.
 */
export interface OpenAiCompatibleConnection extends ProviderTransportOptions {
  baseUrl: string;
  apiKey?: string;
  /** 'bearer' (default): Authorization: Bearer <key>. 'api-key': Azure OpenAI's api-key header. */
  apiKeyHeader?: 'bearer' | 'api-key';
  /** Azure OpenAI classic deployment endpoints need ?api-version=...; the v1 endpoints do not. */
  apiVersion?: string;
}

export function openAiUrl(connection: OpenAiCompatibleConnection, path: string): string {
  const url = new URL(`${connection.baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
  if (connection.apiVersion) url.searchParams.set('api-version', connection.apiVersion);
  return url.toString();
}

export function openAiHeaders(connection: OpenAiCompatibleConnection, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (json) headers['Content-Type'] = 'application/json';
  if (connection.apiKey) {
    if (connection.apiKeyHeader === 'api-key') headers['api-key'] = connection.apiKey;
    else headers.Authorization = `Bearer ${connection.apiKey}`;
  }
  return headers;
}

/** How a JSON request to an OpenAI-compatible endpoint is sent: POST to its URL, with the key in the connection's header. */
export function openAiJsonPost(
  connection: OpenAiCompatibleConnection,
  path: string,
): { url: string; method: 'POST'; headers: Record<string, string> } {
  return { url: openAiUrl(connection, path), method: 'POST', headers: openAiHeaders(connection, true) };
}

/**
 * OpenAI answers an exhausted balance with 429 `insufficient_quota`: retrying cannot help, so it is
 * final and says what to do, unlike a real rate limit.
 */
export function classifyOpenAiError(provider: string, service: ServiceKind) {
  return (status: number, details: ProviderErrorDetails): ProviderError | undefined => {
    if (details.code === 'insufficient_quota' || details.code === 'billing_hard_limit_reached') {
      return new ProviderError(
        `${serviceLabel(service)} account has run out of credits or quota; check the plan and billing of the API key`,
        provider,
        false,
        status,
      );
    }
    return undefined;
  };
}

/** Cheap health check: GET {baseUrl}/models, one attempt, and whether the configured model is listed. */
export async function openAiModelsHealth(
  name: string,
  service: ServiceKind,
  connection: OpenAiCompatibleConnection,
  model: string,
  signal?: AbortSignal,
): Promise<ProviderHealthReport> {
  try {
    const result = await requestWithRetry({
      provider: name,
      service,
      url: openAiUrl(connection, 'models'),
      headers: openAiHeaders(connection, false),
      signal,
      fetch: connection.fetch,
      retryDelaysMs: [],
      timeoutMs: 10_000,
      secrets: connection.apiKey ? [connection.apiKey] : [],
      classifyError: classifyOpenAiError(name, service),
    });
    const body = parseJsonBody(result, name, service) as { data?: Array<{ id?: unknown }> };
    const ids = Array.isArray(body.data) ? body.data.map((entry) => entry.id).filter((id) => typeof id === 'string') : [];
    // Azure OpenAI lists base models, not the deployment names requests use, so absence proves nothing there.
    if (connection.apiKeyHeader !== 'api-key' && ids.length > 0 && !ids.includes(model)) {
      return { name, status: 'error', details: `Reachable, but the model ${model} is not offered (${ids.length} models listed)` };
    }
    return { name, status: 'healthy', details: `Reachable; model ${model}` };
  } catch (error) {
    return { name, status: 'error', details: error instanceof Error ? error.message : 'Health check failed' };
  }
}
