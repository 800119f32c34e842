import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createReelsmithMcpServer } from './reelsmith-mcp-server.js';
import { toolsTable } from './tools-table.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const MARKER = "<!-- generated from the MCP tools' schemas (packages/mcp/src/tools-table.ts); a test keeps this in step -->";

describe('the README tools table', () => {
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
    const start = README.indexOf(MARKER);
    expect(start, 'the README lacks the MCP tools table marker').toBeGreaterThan(-1);
    const inReadme = README.slice(start + MARKER.length)
      .trim()
      .split('\n\n')[0];
    // On a mismatch, paste the expected table (printed below) under the marker.
    expect(inReadme).toBe(table);
  });
});
