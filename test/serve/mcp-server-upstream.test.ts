import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

let ws: TempTree;
let rt: Runtime;
let client: Client;

beforeAll(async () => {
  ws = makeTempTree('tw-mcp-upstream', {});
  rt = await createRuntime({ sandbox: 'off', idleWorkers: 1, mcpServers: { ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
  const session = await rt.openSession({ workspaceRoot: ws.root, tools: [], mcpServers: ['ev'] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(session).connect(serverSide);
  client = new Client({ name: 'upstream-test', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await rt.close();
  ws.cleanup();
});

describe('createMcpServer with an upstream MCP server (server-everything)', () => {
  it('keeps the upstream title, annotations and outputSchema', async () => {
    const { tools } = await client.listTools();
    const structured = tools.find((tool) => tool.name === 'mcp__ev__get-structured-content');
    expect(structured?.title).toBe('Get Structured Content Tool');
    expect(structured?.outputSchema).toMatchObject({ type: 'object' });
    expect(tools.find((tool) => tool.name === 'mcp__ev__gzip-file-as-resource')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
  });

  it('passes images, resource links and content annotations through', async () => {
    const image = await client.callTool({ name: 'mcp__ev__get-tiny-image', arguments: {} });
    expect(image.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'image', mimeType: 'image/png', data: expect.any(String) })]));
    const links = await client.callTool({ name: 'mcp__ev__get-resource-links', arguments: { count: 2 } });
    expect((links.content as { type: string }[]).filter((block) => block.type === 'resource_link')).toHaveLength(2);
    const annotated = await client.callTool({ name: 'mcp__ev__get-annotated-message', arguments: { messageType: 'error', includeImage: true } });
    expect(annotated.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'text', annotations: expect.objectContaining({ priority: expect.any(Number) }) })]));
  });

  it('passes structured content that satisfies the upstream outputSchema (the client validates it)', async () => {
    const result = await client.callTool({ name: 'mcp__ev__get-structured-content', arguments: { location: 'New York' } });
    expect(result.structuredContent).toBeDefined();
  });
});
