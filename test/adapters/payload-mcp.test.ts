import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHttpHandler, createMcpServer } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { missingPayload, openPayloadFixture, PAYLOAD_FILES, payloadCases, type PayloadCase, type PayloadFixture } from './payload-cases.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = path.join(REPO, 'dist/cli/main.js');
// The Inspector CLI finds its own package.json from the working directory, so it runs from its build folder.
const INSPECTOR_DIR = path.join(REPO, 'node_modules/@modelcontextprotocol/inspector-cli/build');
const run = promisify(execFile);

/**
 * What a host hands its model from a result: one that reads only `content` joins the text blocks; one that prefers
 * `structuredContent` (Claude Code, the OpenAI Agents SDK with `useStructuredContent`) sends its JSON on success.
 */
const VIEWS = {
  content: (result: CallToolResult) => result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n'),
  structured: (result: CallToolResult) => (result.isError !== true && result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : VIEWS.content(result)),
};

type CallVia = (c: PayloadCase) => Promise<CallToolResult>;

/** Calls every case at once (each has its own files), checks each result is a success, and gives what each view shows. */
async function viewsOf(cases: PayloadCase[], call: CallVia): Promise<Record<keyof typeof VIEWS, Map<PayloadCase, string>>> {
  const results = await Promise.all(cases.map(call));
  const seen = { content: new Map<PayloadCase, string>(), structured: new Map<PayloadCase, string>() };
  cases.forEach((c, i) => {
    const result = results[i]!;
    expect(result.isError, `${c.tool}: ${VIEWS.content(result)}`).toBeFalsy();
    seen.content.set(c, VIEWS.content(result));
    seen.structured.set(c, VIEWS.structured(result));
  });
  return seen;
}

function expectPayloadInEveryView(cases: PayloadCase[], seen: Record<keyof typeof VIEWS, Map<PayloadCase, string>>): void {
  expect(missingPayload(cases, seen.content), 'content view').toEqual([]);
  expect(missingPayload(cases, seen.structured), 'structured view').toEqual([]);
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

let fx: PayloadFixture;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  fx = await openPayloadFixture('tw-payload-mcp');
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await fx.close();
});

describe('every built-in tool brings its payload to the model through MCP, read from content or from structuredContent', () => {
  it('createMcpServer with the MCP SDK client; read_file text reaches a content-only host once', async () => {
    const { session } = await fx.openSession();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(session).connect(serverSide);
    const client = new Client({ name: 'payload-test', version: '1.0.0' });
    await client.connect(clientSide);
    closers.push(() => client.close());
    const cases = payloadCases(fx.pageUrl);
    const seen = await viewsOf(cases, (c) => client.callTool({ name: c.tool, arguments: c.args }) as Promise<CallToolResult>);
    expectPayloadInEveryView(cases, seen);
    const read = cases.find((c) => c.tool === 'read_file')!;
    expect(occurrences(seen.content.get(read)!, 'alpha line')).toBe(1);
  });

  it('createMcpHttpHandler over Streamable HTTP', async () => {
    const handler = createMcpHttpHandler({ openSession: async () => (await fx.openSession()).session });
    const server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      await handler.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const client = new Client({ name: 'payload-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));
    closers.push(() => client.close());
    const cases = payloadCases(fx.pageUrl);
    expectPayloadInEveryView(cases, await viewsOf(cases, (c) => client.callTool({ name: c.tool, arguments: c.args }) as Promise<CallToolResult>));
  });

  // serve has no option granting a network, so web_fetch is left to the in-process servers above.
  describe('toolwarden serve over stdio', () => {
    let ws: TempTree;
    const serveArgs = (root: string) => [MAIN, 'serve', '--workspace', root, '--tools', payloadCases().map((c) => c.tool).join(','), '--sandbox', 'off'];
    beforeAll(() => {
      ws = makeTempTree('tw-payload-serve', { ...PAYLOAD_FILES });
      closers.push(async () => ws.cleanup());
    });

    it('with the MCP SDK client', async () => {
      const root = path.join(ws.root, 'sdk-client');
      writeFiles(root);
      const client = new Client({ name: 'payload-stdio-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: serveArgs(root), stderr: 'ignore' }));
      closers.push(() => client.close());
      const cases = payloadCases();
      expectPayloadInEveryView(cases, await viewsOf(cases, (c) => client.callTool({ name: c.tool, arguments: c.args }) as Promise<CallToolResult>));
    }, 120_000);

    it('with the MCP Inspector CLI', async () => {
      const root = path.join(ws.root, 'inspector');
      writeFiles(root);
      const cases = payloadCases();
      const seen = await viewsOf(cases, async (c) => {
        const toolArgs = Object.entries(c.args).flatMap(([key, value]) => ['--tool-arg', `${key}=${JSON.stringify(value)}`]);
        const { stdout } = await run(process.execPath, ['index.js', process.execPath, ...serveArgs(root), '--method', 'tools/call', '--tool-name', c.tool, ...toolArgs], { cwd: INSPECTOR_DIR });
        return JSON.parse(stdout) as CallToolResult;
      });
      expectPayloadInEveryView(cases, seen);
    }, 300_000);
  });
});

function writeFiles(root: string): void {
  for (const [relative, text] of Object.entries(PAYLOAD_FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
}
