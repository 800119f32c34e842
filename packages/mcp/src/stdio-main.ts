import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';
import { createReelsmithMcpServer } from './reelsmith-mcp-server.js';

/**
 * `npm run mcp` / `reelsmith-mcp`: the MCP server on stdio for desktop agents (Claude Desktop,
 * Claude Code, Cursor). stdout carries the protocol, so every message of ours goes to stderr.
 */
const envSchema = z.object({
  REELSMITH_API_URL: z
    .url({ protocol: /^https?$/, error: 'REELSMITH_API_URL must be the http(s) address of a Reelsmith server, e.g. http://localhost:8080' })
    .default('http://localhost:8080'),
  REELSMITH_API_KEY: z
    .string({ error: 'REELSMITH_API_KEY is not set: make an API key in Settings → Developer and pass it in the environment.' })
    .trim()
    .min(1, 'REELSMITH_API_KEY is empty: make an API key in Settings → Developer and pass it in the environment.'),
});

const env = envSchema.safeParse(process.env);
if (!env.success) {
  for (const issue of env.error.issues) process.stderr.write(`reelsmith-mcp: ${issue.message}\n`);
  process.exit(1);
}

const server = createReelsmithMcpServer({ baseUrl: env.data.REELSMITH_API_URL, apiKey: env.data.REELSMITH_API_KEY });
await server.connect(new StdioServerTransport());
process.stderr.write(`reelsmith-mcp: serving ${env.data.REELSMITH_API_URL} on stdio\n`);
