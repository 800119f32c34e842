import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createReelsmithMcpServer } from './reelsmith-mcp-server.js';
import { toolsTable } from './tools-table.js';

const API_DOCS = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
const MARKER = "<!-- generated from the MCP tools' schemas (packages/mcp/src/tools-table.ts); a test keeps this in step -->";

describe('the tools table of docs/api.md', () => {
  it('is the table made from the tools as an agent lists them', async () => {
    const server = createReelsmithMcpServer({ baseUrl: 'http://unused.test', apiKey: 'unused' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'readme', version: '1' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const { tools } = await client.listTools();
    await client.close();

    const table = toolsTable(tools);
    expect(table.split('\n')).toHaveLength(tools.length + 2);
    expect(table).toContain('| `update_scene` | Changes one scene of a finished video');
    const start = API_DOCS.indexOf(MARKER);
    expect(start, 'docs/api.md lacks the MCP tools table marker').toBeGreaterThan(-1);
    const inReadme = API_DOCS.slice(start + MARKER.length)
      .trim()
      .split('\n\n')[0];
    // On a mismatch, paste the expected table (printed below) under the marker.
    expect(inReadme).toBe(table);
  });
});
