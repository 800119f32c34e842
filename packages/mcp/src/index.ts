export { handleMcpHttpRequest } from './http-transport.js';
export { connect, type ApiConnection, type ReelsmithApi } from './reelsmith-api.js';
export { createReelsmithMcpServer, MCP_SERVER_NAME, MCP_SERVER_VERSION } from './reelsmith-mcp-server.js';
export { VIDEO_RESOURCE_TEMPLATE, videoResourceUri } from './resources-and-prompts.js';
export { MAX_WAIT_SECONDS, TOOL_DEFINITIONS, type ToolName } from './tools.js';
export { toolsTable } from './tools-table.js';
