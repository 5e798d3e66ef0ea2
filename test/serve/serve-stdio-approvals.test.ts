import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const MAIN = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'dist/cli/main.js');

let ws: TempTree;
const clients: Client[] = [];

async function serve(answer: ((message: string) => ElicitResult) | undefined): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', '--workspace', ws.root, '--tools', 'write_file', '--config', ws.at('serve.json')],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-approvals', version: '1.0.0' }, { capabilities: answer === undefined ? {} : { elicitation: {} } });
  if (answer !== undefined) client.setRequestHandler(ElicitRequestSchema, async (request) => answer((request.params as { message: string }).message));
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(() => {
  ws = makeTempTree('tw-stdio-approvals');
  ws.write({ 'serve.json': JSON.stringify({ permissions: { write_file: 'ask' }, sandbox: 'off', approvalTimeoutMs: 1000 }) });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  ws.cleanup();
});

describe('serve (stdio): an ask goes to the client by elicitation', () => {
  it('an accepted allow writes; the question names the tool', async () => {
    const messages: string[] = [];
    const client = await serve((message) => {
      messages.push(message);
      return { action: 'accept', content: { decision: 'allow' } };
    });
    expect((await client.callTool({ name: 'write_file', arguments: { path: 'ok.md', content: 'ok' } })).isError).toBeFalsy();
    expect(fs.readFileSync(ws.at('ok.md'), 'utf8')).toBe('ok');
    expect(messages[0]).toContain('write_file');
  });

  it('a client that cannot answer is denied, and nothing is written', async () => {
    const client = await serve(undefined);
    const result = await client.callTool({ name: 'write_file', arguments: { path: 'no.md', content: 'no' } });
    expect(result).toMatchObject({ isError: true, structuredContent: { code: 'APPROVAL_DENIED' } });
    expect(fs.existsSync(ws.at('no.md'))).toBe(false);
  });
});
