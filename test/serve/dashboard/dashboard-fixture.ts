import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { parseServeConfig } from '../../../src/serve/serve-config.js';
import { startHttpServer, type HttpServeHandle } from '../../../runtime/serve/http/serve-http.js';
import { makeTempTree, type TempTree } from '../../helpers/temp-workspace.js';

export const ADMIN = 'admin-token-0123456789abcdef';
export const ALICE = 'alice-token-0123456789abcdef';
export const BOB = 'bob-token-0123456789abcdefgh';

/** A serve --http node with the dashboard on: alice may write (asks) and run bash (rm asks, git push is denied). */
export interface DashboardNode {
  readonly home: TempTree;
  readonly server: HttpServeHandle;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The server's log lines. */
  readonly logs: string[];
  /** fetch against the node, with the admin bearer unless `headers.authorization` says otherwise (null: none). */
  api(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string | null> }): Promise<Response>;
  /** An MCP client of `token`; answers elicitations with `answer` when given. */
  client(token: string, answer?: (message: string, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>): Promise<Client>;
  close(): Promise<void>;
}

export async function startDashboardNode(options: { approvalTimeoutMs?: number; dashboard?: boolean; allowedOrigins?: string[]; shutdownGraceMs?: number } = {}): Promise<DashboardNode> {
  const home = makeTempTree('tw-dashboard', { 'alice/plan.md': 'plan\n', 'bob/notes.md': 'notes\n' });
  const config = parseServeConfig(
    {
      tenants: {
        alice: { workspaceRoot: 'alice', tools: ['read_file', 'write_file', 'bash'], permissions: { write_file: 'ask', bash: { allow: ['*'], ask: ['rm *'], deny: ['git push*'] } } },
        bob: { workspaceRoot: 'bob', tools: ['read_file'], maxSessions: 5 },
      },
      tokens: { [ALICE]: 'alice', [BOB]: 'bob' },
      sandbox: 'off',
      approvalTimeoutMs: options.approvalTimeoutMs ?? 10_000,
      admin: { token: ADMIN },
      ...(options.dashboard === false ? {} : { dashboard: { enabled: true, auditEvents: 50 } }),
    },
    home.root,
  );
  const logs: string[] = [];
  const server = await startHttpServer({ config, port: 0, log: (line) => logs.push(line), allowedOrigins: options.allowedOrigins ?? [], ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceMs: options.shutdownGraceMs }) });
  const origin = new URL(server.url).origin;
  const clients: Client[] = [];
  return {
    home,
    server,
    origin,
    logs,
    api: (path, init = {}) => {
      const headers: Record<string, string> = { authorization: `Bearer ${ADMIN}` };
      for (const [key, value] of Object.entries(init.headers ?? {})) {
        if (value === null) delete headers[key];
        else headers[key] = value;
      }
      if (init.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
      return fetch(`${origin}${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }) });
    },
    client: async (token, answer) => {
      const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
      const client = new Client({ name: 'dashboard-test', version: '1.0.0' }, { capabilities: answer === undefined ? {} : { elicitation: {} } });
      if (answer !== undefined) {
        client.setRequestHandler(ElicitRequestSchema, (request, extra) => answer((request.params as { message: string }).message, extra.signal));
      }
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await server.close();
      home.cleanup();
    },
  };
}

/** Polls `read` until `ok` holds for its value (every 25 ms, at most `ms`); throws with the last value otherwise. */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 5_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > ms) throw new Error(`condition not met within ${ms} ms; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Reads Server-Sent Events from a streaming response. */
export function readEvents(response: Response): { next(match: (event: { event: string; data: unknown }) => boolean, ms?: number): Promise<{ event: string; data: unknown }>; close(): void } {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: { event: string; data: unknown }[] = [];
  const pull = async (): Promise<void> => {
    const { value, done } = await reader.read();
    if (done) throw new Error('the event stream ended');
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined) queue.push({ event, data: JSON.parse(data) });
    }
  };
  return {
    next: async (match, ms = 5_000) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = queue.findIndex(match);
        if (found !== -1) return queue.splice(0, found + 1).at(-1)!;
        if (Date.now() > deadline) throw new Error(`no matching event within ${ms} ms`);
        await Promise.race([pull(), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()))]);
      }
    },
    close: () => void reader.cancel().catch(() => undefined),
  };
}

export const textOf = (result: object): string => ((('content' in result ? result.content : undefined) ?? []) as { text: string }[]).map((c) => c.text).join('\n');
