import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const TOKEN = 'carol-token-0123456789abcdef';

let dir: TempTree;
beforeAll(() => {
  dir = makeTempTree('tw-serve-proc', { 'ws/hello.txt': 'hello from carol\n' });
  dir.write({
    'serve.json': JSON.stringify({
      tenants: { carol: { workspaceRoot: 'ws', tools: ['read_file'] } },
      tokens: { [TOKEN]: 'carol' },
      sandbox: 'off',
      audit: { file: 'audit.jsonl' },
    }),
    'graceful.json': JSON.stringify({ tenants: { carol: { workspaceRoot: 'ws', tools: ['bash'] } }, tokens: { [TOKEN]: 'carol' }, sandbox: 'off', shutdownGraceMs: 60_000 }),
  });
});
afterAll(() => dir.cleanup());

/** Starts `toolwarden serve --http` with these flags and a client of carol's; resolves once it is connected. */
async function serveAndConnect(flags: string[]) {
  const child = execa(process.execPath, [MAIN, 'serve', '--http', '--port', '0', ...flags], { reject: false });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    void child.then(() => reject(new Error(`server exited early: ${stderr}`)));
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
  const client = new Client({ name: 'proc-test', version: '1.0.0' });
  await client.connect(transport);
  return { child, client };
}

describe('toolwarden serve --http (process)', () => {
  it('serves a tenant session, audits its calls, and shuts down cleanly on SIGTERM', async () => {
    const { child, client } = await serveAndConnect(['--config', dir.at('serve.json')]);
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } });
    expect(JSON.stringify(result.content)).toContain('hello from carol');

    child.kill('SIGTERM');
    const ended = await child;
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout).toBe('');
    expect(ended.stderr).toMatch(/SIGTERM: shutting down/);
    expect(ended.stderr).toMatch(/of carol closed: the server is shutting down/);
    const audit = fs.readFileSync(dir.at('audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit).toContainEqual(expect.objectContaining({ user: 'carol', tool: 'read_file', decision: 'allow' }));
    await client.close();
  });
});

describe('toolwarden serve --http --shutdown-grace-ms (process)', () => {
  it.each([
    ['0 over the config\'s minute: the call in flight ends with its session', ['--shutdown-grace-ms', '0'], 'SESSION_CLOSED'],
    ["none: the config's minute lets the call in flight finish", [], undefined],
  ])('%s', async (_name, flags, code) => {
    const { child, client } = await serveAndConnect(['--config', dir.at('graceful.json'), ...flags]);
    const marker = `tw-grace-flag-${process.pid}-${Date.now()}`;
    const call = client.callTool({ name: 'bash', arguments: { action: 'exec', command: `sleep 2; echo ${marker}` } });
    for (let i = 0; i < 400; i++) {
      if ((await execa('pgrep', ['-f', marker], { reject: false })).exitCode === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill('SIGTERM');
    const result = await call;
    expect((result.structuredContent as { code?: string } | undefined)?.code).toBe(code);
    if (code === undefined) expect(JSON.stringify(result.content)).toContain(marker);
    expect((await child).exitCode).toBe(0);
    await client.close();
  });
});
