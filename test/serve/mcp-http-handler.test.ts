import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpHttpHandler, createRuntime, type McpHttpHandler, type Runtime } from '../../runtime/index.js';
import { parseServeConfig } from '../../src/serve/serve-config.js';
import { startHttpServer } from '../../runtime/serve/http/serve-http.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

let ws: TempTree;
let rt: Runtime;
let handler: McpHttpHandler;
let server: http.Server;
let url: URL;
const EIGHT_MIB = 8 * 1024 * 1024;

beforeAll(async () => {
  ws = makeTempTree('tw-mcp-http-handler', { 'notes.md': 'handler notes\n' });
  rt = await createRuntime({ sandbox: 'off', idleWorkers: 1 });
  handler = createMcpHttpHandler({ openSession: () => rt.openSession({ workspaceRoot: ws.root, tools: ['read_file', 'write_file'], limits: { writeQuotaBytes: 64 * 1024 * 1024 } }) });
  // A host's own server: the handler sits at /mcp next to the host's other routes.
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/mcp')) void handler(req, res);
    else res.writeHead(200).end('host page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  await handler.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rt.close();
  ws.cleanup();
});

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: 'handler-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('createMcpHttpHandler on node:http', () => {
  it('serves a session per MCP session, closed when the client deletes it', async () => {
    const { client, transport } = await connect();
    expect(handler.sessionCount).toBe(1);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['read_file', 'write_file']);
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.md' } });
    expect(JSON.stringify(read.content)).toContain('handler notes');
    await transport.terminateSession();
    await client.close();
    expect(handler.sessionCount).toBe(0);
  });

  it('takes a write_file of 8 MiB by default, and answers a body past maxBodyBytes with 413', async () => {
    const { client, transport } = await connect();
    const content = 'x'.repeat(EIGHT_MIB);
    const written = await client.callTool({ name: 'write_file', arguments: { path: 'big.txt', content } });
    expect(written.isError ?? false).toBe(false);
    expect(fs.statSync(ws.at('big.txt')).size).toBe(EIGHT_MIB);
    await transport.terminateSession();
    await client.close();

    const small = createMcpHttpHandler({ openSession: () => rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'] }), maxBodyBytes: 2048 });
    const smallServer = http.createServer((req, res) => void small(req, res));
    await new Promise<void>((resolve) => smallServer.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(smallServer.address() as AddressInfo).port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { padding: 'p'.repeat(4096) } }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/larger than 2048 bytes/) } });
    } finally {
      await small.close();
      await new Promise<void>((resolve) => smallServer.close(() => resolve()));
    }
  });

  it('answers a request for an unknown MCP session with 404', async () => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'nope' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(response.status).toBe(404);
  });
});

describe('serve --http body limit', () => {
  it('takes a write_file of 8 MiB with the default maxBodyBytes', async () => {
    const home = makeTempTree('tw-serve-http-body', { 'w/.keep': '' });
    const token = 'body-token-0123456789abcdef';
    const config = parseServeConfig({ tenants: { u: { workspaceRoot: 'w', tools: ['write_file'] } }, tokens: { [token]: 'u' }, sandbox: 'off' }, home.root);
    const served = await startHttpServer({ config, port: 0, log: () => undefined });
    const client = new Client({ name: 'body-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      const written = await client.callTool({ name: 'write_file', arguments: { path: 'big.txt', content: 'y'.repeat(EIGHT_MIB) } });
      expect(written.isError ?? false).toBe(false);
      expect(fs.statSync(home.at('w/big.txt')).size).toBe(EIGHT_MIB);
    } finally {
      await client.close();
      await served.close();
      home.cleanup();
    }
  });
});
