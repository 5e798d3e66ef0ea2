import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { parseServeConfig } from '../../src/serve/serve-config.js';
import { startHttpServer, type HttpServeHandle } from '../../runtime/serve/http/serve-http.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const ALICE = 'alice-token-0123456789abcdef';

let home: TempTree;
let server: HttpServeHandle;
const clients: Client[] = [];
const asked: { message: string; choices: unknown }[] = [];

async function connect(answer: ((message: string) => ElicitResult | Promise<ElicitResult>) | undefined): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${ALICE}` } } });
  const client = new Client({ name: 'approvals-test', version: '1.0.0' }, { capabilities: answer === undefined ? {} : { elicitation: {} } });
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as unknown as { message: string; requestedSchema: { properties: { decision: { enum: unknown } } } };
      asked.push({ message: params.message, choices: params.requestedSchema.properties.decision.enum });
      return answer(params.message);
    });
  }
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: object): string => ((('content' in result ? result.content : undefined) ?? []) as { text: string }[]).map((c) => c.text).join('\n');

beforeAll(async () => {
  home = makeTempTree('tw-serve-approvals', { 'alice/plan.md': 'alice plan\n' });
  const config = parseServeConfig(
    { tenants: { alice: { workspaceRoot: 'alice', tools: ['read_file', 'write_file'], permissions: { write_file: 'ask' } } }, tokens: { [ALICE]: 'alice' }, sandbox: 'off', approvalTimeoutMs: 1000 },
    home.root,
  );
  server = await startHttpServer({ config, port: 0, log: () => undefined });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await server?.close();
  home.cleanup();
});

describe('approvals when serving: an ask goes to the client by elicitation', () => {
  it('allow once: the call runs, and the question names the tool, the path and the choices', async () => {
    const client = await connect(() => ({ action: 'accept', content: { decision: 'allow' } }));
    const result = await client.callTool({ name: 'write_file', arguments: { path: 'a.md', content: 'A' } });
    expect(result.isError).toBeFalsy();
    expect(asked.at(-1)!.message).toContain('write_file');
    expect(asked.at(-1)!.message).toContain('a.md');
    expect(asked.at(-1)!.choices).toEqual(['allow', 'deny', 'allow-always']);
    await client.close();
  });

  it.each<[string, ElicitResult]>([
    ['deny', { action: 'accept', content: { decision: 'deny' } }],
    ['a declined form', { action: 'decline' }],
    ['a cancelled form', { action: 'cancel' }],
    ['an answer outside the choices', { action: 'accept', content: { decision: 'allow-forever' } }],
  ])('%s is a denial, and nothing is written', async (_name, answer) => {
    const client = await connect(() => answer);
    const result = await client.callTool({ name: 'write_file', arguments: { path: 'denied.md', content: 'D' } });
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toContain('APPROVAL_DENIED');
    await client.close();
  });

  it('allow always: asked once, then remembered for the same call in the session', async () => {
    let count = 0;
    const client = await connect(() => {
      count += 1;
      return { action: 'accept', content: { decision: 'allow-always' } };
    });
    for (const name of ['b.md', 'b.md']) expect((await client.callTool({ name: 'write_file', arguments: { path: name, content: 'B' } })).isError).toBeFalsy();
    expect(count).toBe(1);
    await client.close();
  });

  it('a client without the elicitation capability cannot answer: denied at once', async () => {
    const client = await connect(undefined);
    const result = await client.callTool({ name: 'write_file', arguments: { path: 'c.md', content: 'C' } });
    expect(textOf(result)).toContain('APPROVAL_DENIED');
    await client.close();
  });

  it('no answer within approvalTimeoutMs is a denial', async () => {
    const client = await connect(() => new Promise<ElicitResult>(() => undefined));
    const started = Date.now();
    const result = await client.callTool({ name: 'write_file', arguments: { path: 'late.md', content: 'L' } });
    expect(textOf(result)).toContain('APPROVAL_DENIED');
    expect(Date.now() - started).toBeLessThan(10_000);
    await client.close();
  });
});
