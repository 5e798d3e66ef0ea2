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
  });
});
afterAll(() => dir.cleanup());

describe('toolwarden serve --http (process)', () => {
  it('serves a tenant session, audits its calls, and shuts down cleanly on SIGTERM', async () => {
    const child = execa(process.execPath, [MAIN, 'serve', '--http', '--port', '0', '--config', dir.at('serve.json')], { reject: false });
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
