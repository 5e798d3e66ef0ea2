import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseServeConfig } from '../../src/serve/serve-config.js';
import { startHttpServer, type HttpServeHandle } from '../../runtime/serve/http/serve-http.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const ADMIN = 'admin-token-0123456789abcdef';
const TOKENS = { alice: 'alice-token-0123456789abcdef', bob: 'bob-token-0123456789abcdefgh', carol: 'carol-token-0123456789abcdef' };

let home: TempTree;
const clients: Client[] = [];
const nodes: HttpServeHandle[] = [];

beforeAll(() => {
  home = makeTempTree('tw-serve-limits', { 'alice/a.md': 'a\n', 'bob/b.md': 'b\n', 'carol/c.md': 'c\n' });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(nodes.map((node) => node.close()));
  home.cleanup();
});

async function start(extra: Record<string, unknown>): Promise<HttpServeHandle> {
  const asks = { write_file: 'ask' };
  const config = parseServeConfig(
    {
      tenants: {
        alice: { workspaceRoot: 'alice', tools: ['write_file', 'bash'], permissions: asks },
        bob: { workspaceRoot: 'bob', tools: ['write_file'], limits: { maxProcesses: 5, writeQuotaBytes: 4096 } },
        carol: { workspaceRoot: 'carol', tools: ['write_file'], limits: { toolTimeoutMs: 20_000 }, permissions: asks },
      },
      tokens: Object.fromEntries(Object.entries(TOKENS).map(([user, token]) => [token, user])),
      sandbox: 'off',
      admin: { token: ADMIN },
      dashboard: { enabled: true },
      ...extra,
    },
    home.root,
  );
  const node = await startHttpServer({ config, port: 0, log: () => undefined });
  nodes.push(node);
  return node;
}

async function connect(node: HttpServeHandle, user: keyof typeof TOKENS): Promise<Client> {
  const client = new Client({ name: `limits-test-${user}`, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(node.url), { requestInit: { headers: { authorization: `Bearer ${TOKENS[user]}` } } }));
  clients.push(client);
  return client;
}

type State = { sessions: { user: string; maxProcesses: number; writeQuotaBytes: number; client?: string }[]; approvals: { id: string; user: string; askedAt: number; deadline: number; endsBy: string }[] };
const stateOf = async (node: HttpServeHandle): Promise<State> => (await (await fetch(node.url.replace(/\/mcp$/, '/ui/api/state'), { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as State;

async function pendingOf(node: HttpServeHandle, user: string): Promise<State['approvals'][number]> {
  for (;;) {
    const found = (await stateOf(node)).approvals.find((item) => item.user === user);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const deny = (node: HttpServeHandle, id: string) =>
  fetch(node.url.replace(/\/mcp$/, `/ui/api/approvals/${id}`), { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: '{"decision":"deny"}' });

describe('serve --http: the config\'s limits, for every user and per tenant', () => {
  it("gives each session the config's limits with its tenant's over them", async () => {
    const node = await start({ limits: { maxProcesses: 3, toolTimeoutMs: 900_000 }, approvalTimeoutMs: 600_000 });
    await connect(node, 'alice');
    await connect(node, 'bob');
    const sessions = (await stateOf(node)).sessions;
    expect(sessions.find((s) => s.user === 'alice')).toMatchObject({ maxProcesses: 3, writeQuotaBytes: 0 });
    expect(sessions.find((s) => s.user === 'bob')).toMatchObject({ maxProcesses: 5, writeQuotaBytes: 4096 });
  });

  it("shows an approval's real deadline: the approval timeout when the call has longer, the call's own when it comes first", async () => {
    const node = await start({ limits: { toolTimeoutMs: 900_000 }, approvalTimeoutMs: 600_000 });
    const [alice, carol] = await Promise.all([connect(node, 'alice'), connect(node, 'carol')]);
    const calls = [alice, carol].map((client) => client.callTool({ name: 'write_file', arguments: { path: 'x.md', content: 'x' } }));
    const long = await pendingOf(node, 'alice');
    expect(long).toMatchObject({ endsBy: 'approvalTimeoutMs' });
    expect(long.deadline - long.askedAt).toBe(600_000);
    const short = await pendingOf(node, 'carol');
    expect(short).toMatchObject({ endsBy: 'toolTimeoutMs' });
    expect(short.deadline - short.askedAt).toBeLessThanOrEqual(20_000);
    for (const item of [long, short]) expect((await deny(node, item.id)).status).toBe(200);
    for (const result of await Promise.all(calls)) expect(result).toMatchObject({ isError: true, structuredContent: { code: 'APPROVAL_DENIED' } });
  });
});

describe("serve --http: the config's shutdownGraceMs", () => {
  /** Starts `sleep 2; echo <marker>` in alice's session, waits until it runs, and closes the node. */
  async function closeDuringCall(node: HttpServeHandle): Promise<unknown> {
    const client = await connect(node, 'alice');
    const marker = `tw-grace-${process.pid}-${Date.now()}`;
    const call = client.callTool({ name: 'bash', arguments: { action: 'exec', command: `sleep 2; echo ${marker}` } });
    for (let i = 0; i < 400; i++) {
      if ((await execa('pgrep', ['-f', marker], { reject: false })).exitCode === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await node.close();
    return { result: await call, marker };
  }

  it('0: the call in flight ends at once with the session', async () => {
    const node = await start({ shutdownGraceMs: 0 });
    expect(await closeDuringCall(node)).toMatchObject({ result: { isError: true, structuredContent: { code: 'SESSION_CLOSED' } } });
  });

  it('a minute (the near miss): the call in flight finishes before the node closes', async () => {
    const node = await start({ shutdownGraceMs: 60_000 });
    const { result, marker } = (await closeDuringCall(node)) as { result: { isError?: boolean; content: { text: string }[] }; marker: string };
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain(marker);
  });
});
