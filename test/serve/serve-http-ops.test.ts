import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseServeConfig } from '../../src/serve/serve-config.js';
import { startHttpServer, type HttpServeHandle } from '../../runtime/serve/http/serve-http.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const ALICE = 'alice-token-0123456789abcdef';
const ADMIN = 'admin-token-0123456789abcdef';

let home: TempTree;
let server: HttpServeHandle;
const clients: Client[] = [];

function config(extra: Record<string, unknown> = {}) {
  return parseServeConfig({ tenants: { alice: { workspaceRoot: 'alice', tools: ['read_file', 'bash'] } }, tokens: { [ALICE]: 'alice' }, sandbox: 'off', ...extra }, home.root);
}

async function connect(url: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${ALICE}` } } });
  const client = new Client({ name: 'ops-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const base = (handle: HttpServeHandle): string => handle.url.replace(/\/mcp$/, '');
const get = (url: string, token?: string) => fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  home = makeTempTree('tw-serve-ops', { 'alice/plan.md': 'alice plan\n' });
  server = await startHttpServer({ config: config({ admin: { token: ADMIN } }), port: 0, log: () => undefined });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await server?.close();
  home.cleanup();
});

describe('serve --http operations endpoints', () => {
  it('answers /healthz and /readyz without a token, saying nothing of users', async () => {
    const health = await get(`${base(server)}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await get(`${base(server)}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
  });

  it("serves /metrics to the admin token only, never to a user's token", async () => {
    expect((await get(`${base(server)}/metrics`)).status).toBe(401);
    expect((await get(`${base(server)}/metrics`, ALICE)).status).toBe(401);
    expect((await get(`${base(server)}/metrics`, `${ADMIN}x`)).status).toBe(401);
    const ok = await get(`${base(server)}/metrics`, ADMIN);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain');
  });

  it('counts calls by tool and decision, their latency, and the live sessions per user', async () => {
    const client = await connect(server.url);
    await client.callTool({ name: 'read_file', arguments: { path: 'plan.md' } });
    await client.callTool({ name: 'read_file', arguments: { path: '../outside.md' } });
    const text = await (await get(`${base(server)}/metrics`, ADMIN)).text();
    expect(text).toMatch(/^toolwarden_calls_total\{tool="read_file",decision="allow"\} 1$/m);
    expect(text).toMatch(/^toolwarden_calls_total\{tool="read_file",decision="deny"\} 1$/m);
    expect(text).toMatch(/^toolwarden_call_duration_seconds_count\{tool="read_file"\} 2$/m);
    expect(text).toMatch(/^toolwarden_sessions\{user="alice"\} 1$/m);
    expect(text).toMatch(/^toolwarden_http_sessions 1$/m);
    // Tool names a caller makes up never become series of their own.
    for (let i = 0; i < 5; i++) await client.callTool({ name: `made_up_${i}`, arguments: {} }).catch(() => undefined);
    const after = await (await get(`${base(server)}/metrics`, ADMIN)).text();
    expect(after).not.toContain('made_up_');
    for (const name of ['toolwarden_processes_running', 'toolwarden_approvals_pending', 'toolwarden_idle_workers', 'toolwarden_node_nodejs_eventloop_lag_p99_seconds']) {
      expect(text).toMatch(new RegExp(`^${name} \\d`, 'm'));
    }
    await client.close();
  });

  it('without an admin token there are no metrics, and readiness still answers', async () => {
    const plain = await startHttpServer({ config: config(), port: 0, log: () => undefined });
    const reply = await get(`${base(plain)}/metrics`, ALICE);
    expect(reply.status).toBe(404);
    expect(await reply.text()).toContain('admin');
    expect((await get(`${base(plain)}/readyz`)).status).toBe(200);
    await plain.close();
  });

  it.each([
    [{ token: 'short' }, 'at least 16 characters'],
    [{ token: ALICE }, "must differ from every user's bearer token"],
    [{ token: ADMIN, extra: 1 }, "unknown"],
  ])('refuses admin %j', (admin, message) => {
    expect(() => config({ admin })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(message) }));
  });
});

describe('serve --http shutdown', () => {
  it('stops accepting, bounds the drain by shutdownGraceMs, ends the call in flight and its command', async () => {
    const node = await startHttpServer({ config: config(), port: 0, log: () => undefined, shutdownGraceMs: 300 });
    const client = await connect(node.url);
    const marker = `tw-drain-${process.pid}-${Date.now()}`;
    // `sleep 30 # marker` would be exec'd by bash as a bare `sleep 30`: the marker must stay in a live command line.
    const call = client.callTool({ name: 'bash', arguments: { action: 'exec', command: `sleep 30; echo ${marker}` } }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    // The command is running before the shutdown starts.
    let running = false;
    for (let i = 0; i < 200 && !running; i++) {
      running = (await execa('pgrep', ['-f', marker], { reject: false })).exitCode === 0;
      if (!running) await new Promise((r) => setTimeout(r, 50));
    }
    expect(running).toBe(true);
    const started = Date.now();
    await node.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await call).toMatchObject({ result: { isError: true, structuredContent: { code: 'SESSION_CLOSED' } } });
    await expect(fetch(`${base(node)}/readyz`)).rejects.toThrow();
    let left = 0;
    for (let i = 0; i < 40; i++) {
      left = (await execa('pgrep', ['-f', marker], { reject: false })).exitCode === 0 ? 1 : 0;
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(left).toBe(0);
  });
});
