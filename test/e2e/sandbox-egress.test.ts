import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// A session with a host list and a credential, end to end: the runtime starts the session's proxy, bash commands
// go through it, the audit sink gets each connection, and closing the session stops it.
const detection = await detectSandbox();
const SECRET = `e2e-secret-${process.pid}`;
let rt: Runtime;
let ws: TempTree;
let server: http.Server;
let port = 0;
const authorizations: (string | undefined)[] = [];
const events: AuditEvent[] = [];

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1, audit: (event) => events.push(event) });
  ws = makeTempTree('tw-egress-e2e', {});
  server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    res.end('hello from the registry');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await rt.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  ws.cleanup();
});

describe.runIf(detection.available)('a session with a host list and a credential', () => {
  it('reaches the listed host through its proxy with the value, audits it, and never shows the value', async () => {
    const s = await rt.openSession({
      workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required', user: 'alice',
      net: [`127.0.0.1:${port}`], credentials: { REGISTRY_TOKEN: { value: SECRET, hosts: [`127.0.0.1:${port}`] } },
    });
    const command = `curl -sS -m 5 -H "Authorization: Bearer $REGISTRY_TOKEN" http://127.0.0.1:${port}/pkg; echo; echo "$REGISTRY_TOKEN"; curl -sS -m 3 --noproxy '*' http://127.0.0.1:${port}/ || echo direct-refused`;
    const result = await s.call('bash', { command });
    expect(result.isError, textOf(result)).toBeFalsy();
    const stdout = String(result.structuredContent?.['stdout']);
    expect(stdout).toContain('hello from the registry');
    expect(stdout).toMatch(/toolwarden-credential-REGISTRY_TOKEN-[0-9a-f]{32}/);
    expect(stdout).toContain('direct-refused');
    expect(authorizations).toEqual([`Bearer ${SECRET}`]);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    const egress = events.filter((e) => e.tool === 'egress');
    expect(egress).toHaveLength(1);
    expect(egress[0]).toMatchObject({ sessionId: s.id, user: 'alice', decision: 'allow', rule: `net '127.0.0.1:${port}'`, args: { via: 'http', host: '127.0.0.1', port, commands: [command] } });
    await s.close();
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  it('web_fetch replaces the same placeholder for the credential hosts only', async () => {
    const other = http.createServer((req, res) => {
      authorizations.push(`other: ${req.headers.authorization ?? ''}`);
      res.end('other');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as AddressInfo).port;
    try {
      const s = await rt.openSession({
        workspaceRoot: ws.root, tools: ['bash', 'web_fetch'], sandbox: 'required',
        net: [`127.0.0.1:${port}`, `127.0.0.1:${otherPort}`], credentials: { REGISTRY_TOKEN: { value: SECRET, hosts: [`127.0.0.1:${port}`] } },
      });
      const placeholder = String((await s.call('bash', { command: 'printf %s "$REGISTRY_TOKEN"' })).structuredContent?.['stdout']);
      expect(placeholder).toMatch(/^toolwarden-credential-REGISTRY_TOKEN-/);
      authorizations.length = 0;
      const headers = { authorization: `Bearer ${placeholder}` };
      const fetched = await s.call('web_fetch', { url: `http://127.0.0.1:${port}/`, headers });
      expect(fetched.isError, textOf(fetched)).toBeFalsy();
      await s.call('web_fetch', { url: `http://127.0.0.1:${otherPort}/`, headers });
      expect(authorizations).toEqual([`Bearer ${SECRET}`, `other: Bearer ${placeholder}`]);
      await s.close();
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('refuses a connection past limits.egressMaxConnections with EGRESS_LIMIT, audited', async () => {
    let held = 0;
    const slow = http.createServer((_req, res) => {
      held += 1;
      setTimeout(() => res.end('slow'), 3_000);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowPort = (slow.address() as AddressInfo).port;
    try {
      const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required', net: [`127.0.0.1:${slowPort}`], limits: { egressMaxConnections: 1 } });
      const url = `http://127.0.0.1:${slowPort}/`;
      const result = await s.call('bash', { command: `curl -sS -m 8 -o /dev/null ${url} & sleep 1; curl -sS -m 5 -o /dev/null -w 'second=%{http_code}' ${url}; wait` });
      expect(String(result.structuredContent?.['stdout'])).toContain('second=429');
      expect(held).toBe(1);
      const refused = events.filter((e) => e.tool === 'egress' && e.sessionId === s.id && e.code === 'EGRESS_LIMIT');
      expect(refused).toMatchObject([{ decision: 'deny', rule: 'limits.egressMaxConnections', args: { host: '127.0.0.1', port: slowPort } }]);
      await s.close();
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
