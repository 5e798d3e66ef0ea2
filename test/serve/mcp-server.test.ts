import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ErrorCode, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

let ws: TempTree;
let rt: Runtime;
let session: Session;
let client: Client;

beforeAll(async () => {
  ws = makeTempTree('tw-mcp-server', { 'src/a.ts': 'export const a = 1;\n', 'notes.md': 'find me\n' });
  rt = await createRuntime({ sandbox: 'off', idleWorkers: 1 });
  session = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'bash'] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(session).connect(serverSide);
  client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await rt.close();
  ws.cleanup();
});

describe('createMcpServer', () => {
  it('lists titles, annotations from each tool nature and the capability, and output schemas', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.read_file).toMatchObject({ title: 'Read file', annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }, outputSchema: { type: 'object' } });
    expect(byName.write_file?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.edit_file?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });
    // The session has no network: bash cannot reach the open world.
    expect(byName.bash?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: false });
  });

  it('every tool result passes the client validation against its output schema, and carries its facts as text too', async () => {
    const calls = [
      { name: 'read_file', arguments: { path: 'notes.md' } },
      { name: 'write_file', arguments: { path: 'out.txt', content: 'x' } },
      { name: 'edit_file', arguments: { path: 'out.txt', old_string: 'x', new_string: 'y' } },
      { name: 'list_dir', arguments: {} },
      { name: 'glob', arguments: { pattern: '**/*.ts' } },
      { name: 'grep', arguments: { pattern: 'find' } },
      { name: 'bash', arguments: { command: 'echo hi' } },
      { name: 'read_file', arguments: { path: 'missing.txt' } },
    ];
    for (const call of calls) {
      const result = await client.callTool(call);
      expect(result.structuredContent, call.name).toBeDefined();
      const texts = (result.content as { type: string; text: string }[]).map((block) => block.text);
      // The last block is the JSON of every structured field no text block holds verbatim (read_file's text is one).
      const shown = Object.entries(result.structuredContent!).filter(([, value]) => typeof value === 'string' && texts.slice(0, -1).includes(value));
      expect({ ...Object.fromEntries(shown), ...(JSON.parse(texts.at(-1)!) as object) }, call.name).toEqual(result.structuredContent);
      const shownKeys = new Set(shown.map(([key]) => key));
      expect(JSON.parse(texts.at(-1)!), call.name).toEqual(Object.fromEntries(Object.entries(result.structuredContent!).filter(([key]) => !shownKeys.has(key))));
    }
    const missing = await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } });
    expect(missing).toMatchObject({ isError: true, structuredContent: { code: 'NOT_FOUND' } });
  });

  it('answers an unknown tool and malformed params with JSON-RPC -32602, not a tool result', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(/Unknown tool: no_such_tool/) });
    const malformed = client.request({ method: 'tools/call', params: { name: 42, arguments: 'nope' } } as never, CallToolResultSchema);
    await expect(malformed).rejects.toBeInstanceOf(McpError);
    await expect(malformed).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    // Arguments that are an object but wrong for the tool stay a tool result the model can recover from.
    expect(await client.callTool({ name: 'read_file', arguments: { path: 7 } })).toMatchObject({ isError: true, structuredContent: { code: 'INVALID_ARGS' } });
  });

  it('sends progress notifications during a long bash exec when the client asks with a progressToken', async () => {
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'bash', arguments: { command: 'sleep 2.3' } }, undefined, { onprogress: (p) => progress.push(p) });
    expect(result.isError ?? false).toBe(false);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[1]!.progress).toBeGreaterThan(progress[0]!.progress);
    expect(progress[0]?.message).toMatch(/^bash running for /);
    const quick: Progress[] = [];
    await client.callTool({ name: 'read_file', arguments: { path: 'notes.md' } }, undefined, { onprogress: (p) => quick.push(p) });
    expect(quick).toEqual([]);
  });
});
