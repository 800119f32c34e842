import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { connect, type ApiConnection } from './reelsmith-api.js';
import { registerPrompts, registerVideoResources } from './resources-and-prompts.js';
import { registerTools } from './tools.js';

export const MCP_SERVER_NAME = 'reelsmith';
export const MCP_SERVER_VERSION = '0.1.0';

/** One MCP server over the Reelsmith API with one creator's key: the tools, the video resources and the prompt. */
export function createReelsmithMcpServer(connection: ApiConnection): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      instructions:
        'Reelsmith makes short narrated videos. list_voices, then generate_video (returns at once), then get_video_status until completed; ' +
        'get_storyboard, update_scene and render_video edit a finished video. The make_short prompt walks through it.',
    },
  );
  const api = connect(connection);
  registerTools(server, api);
  registerVideoResources(server, api);
  registerPrompts(server);
  return server;
}
