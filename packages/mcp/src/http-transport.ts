import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiConnection } from './reelsmith-api.js';
import { createReelsmithMcpServer } from './reelsmith-mcp-server.js';

/**
 * Answers one Streamable HTTP request (a POST of JSON-RPC messages) statelessly: a fresh server and
 * transport per request, closed when the response ends, so any API process can take any request and
 * no session outlives its key. Results stream as server-sent events, which carries a tool's progress
 * notifications before its result.
 */
export async function handleMcpHttpRequest(
  request: IncomingMessage,
  response: ServerResponse,
  parsedBody: unknown,
  connection: ApiConnection,
): Promise<void> {
  const server = createReelsmithMcpServer(connection);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, parsedBody);
}
