import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = path.join(REPO, 'dist/cli/main.js');
const TEST_SERVER = path.join(REPO, 'test/fixtures/mcp/test-server.mjs');

let ws: TempTree;
let client: Client;
let stderr = '';

beforeAll(async () => {
  ws = makeTempTree('tw-serve-stdio', { 'src/a.ts': 'export const a = 1;\n', 'notes.md': 'find me\n' });
  ws.write({ 'serve.json': JSON.stringify({ mcpServers: { t: { command: process.execPath, args: [TEST_SERVER] } }, sandbox: 'off' }) });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', '--workspace', ws.root, '--tools', 'read_file,grep', '--mcp', 't:echo', '--config', ws.at('serve.json')],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  ws.cleanup();
});

describe('toolwarden serve (stdio)', () => {
  it('lists only the allowed tools and the allowed MCP tool, with their JSON Schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['grep', 'mcp__t__echo', 'read_file']);
    expect(tools.find((t) => t.name === 'read_file')?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });
  });

  it('runs an allowed read', async () => {
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'src/a.ts' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('export const a = 1;');
  });

  it('refuses a ../ path outside the workspace with isError and the code in text and structuredContent', async () => {
    const result = await client.callTool({ name: 'read_file', arguments: { path: '../../../../etc/passwd' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(/^NOT_READABLE: /);
    expect(result.structuredContent).toMatchObject({ code: 'NOT_READABLE' });
  });

  it.each([
    ['a tool not in the capability', 'write_file', { path: 'x.txt', content: 'x' }],
    ['an MCP tool outside the entry', 'mcp__t__add', { a: 1, b: 2 }],
  ])('answers %s, which it does not list, with JSON-RPC -32602', async (_name, tool, args) => {
    await expect(client.callTool({ name: tool, arguments: args })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(`Unknown tool: ${tool}`) });
  });

  it('passes an allowed MCP call through to the configured server', async () => {
    const result = await client.callTool({ name: 'mcp__t__echo', arguments: { text: 'through the broker' } });
    expect(result.content).toEqual([{ type: 'text', text: 'through the broker' }]);
  });

  it('logs to stderr only', () => {
    expect(stderr).toContain('serving session');
  });
});

describe('toolwarden serve (stdio) tool list changes', () => {
  it("forwards an upstream server's tools/list_changed to the client", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve', '--workspace', ws.root, '--tools', 'read_file', '--mcp', 't:grow', '--mcp', 't:extra_*', '--config', ws.at('serve.json')],
      stderr: 'pipe',
    });
    const watcher = new Client({ name: 'stdio-list-changed', version: '1.0.0' });
    let changed = 0;
    watcher.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed += 1;
    });
    await watcher.connect(transport);
    try {
      expect((await watcher.listTools()).tools.map((t) => t.name)).not.toContain('mcp__t__extra_1');
      await watcher.callTool({ name: 'mcp__t__grow', arguments: {} });
      await vi.waitFor(() => expect(changed).toBeGreaterThan(0), { timeout: 5_000, interval: 20 });
      expect((await watcher.listTools()).tools.map((t) => t.name)).toContain('mcp__t__extra_1');
    } finally {
      await watcher.close();
    }
  });
});

describe('toolwarden serve (stdio) start-up errors', () => {
  it.each([
    ['an unknown tool', ['--workspace', '.', '--tools', 'read_fiel'], /INVALID_OPTIONS: unknown tool 'read_fiel'/, 1],
    ['a missing workspace', ['--tools', 'read_file'], /--workspace DIR is required/, 2],
    ['an HTTP-only flag', ['--workspace', '.', '--port', '1'], /--port is only for HTTP serving/, 2],
  ])('exits with a clear message for %s', async (_name, args, message, exitCode) => {
    const { execa } = await import('execa');
    const result = await execa(process.execPath, [MAIN, 'serve', ...args], { reject: false, cwd: fs.realpathSync(ws.root), input: '' });
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(result.exitCode).toBe(exitCode);
  });
});
