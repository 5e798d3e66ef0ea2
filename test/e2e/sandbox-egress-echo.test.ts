import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Secrets coming back (attack family 23), end to end: a credential host that echoes the request puts the value, or
// its base64 or percent-encoded form, compressed or not, into what flows back into the sandbox. None of it may reach
// the command's stdout, a workspace file, the bash result, web_fetch's result or the audit log; the host itself still
// gets the value (the credential keeps working).
const detection = await detectSandbox();
const SECRET = `e2e/echo+secret=${process.pid}&x`;
/** Percent-encoding with lower-case hex digits, as some servers write it. */
const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
let rt: Runtime;
let ws: TempTree;
let server: http.Server;
let port = 0;
const received: string[] = [];
const events: AuditEvent[] = [];

/** Every form of the value that must not come back. */
const forms = (): string[] => [
  SECRET,
  encodeURIComponent(SECRET),
  lowerHex(encodeURIComponent(SECRET)),
  Buffer.from(SECRET).toString('base64'),
  Buffer.from(SECRET).toString('base64url'),
  Buffer.from(`x-access-token:${SECRET}`).toString('base64'),
];

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1, audit: (event) => events.push(event) });
  ws = makeTempTree('tw-egress-echo', {});
  // Echoes the authorization it got in the forms an API might (error pages, debug endpoints, token introspection).
  server = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    received.push(auth);
    const value = auth.replace(/^Bearer /, '');
    const body = [
      `auth=${auth}`,
      `b64=${Buffer.from(value).toString('base64')}`,
      `b64url=${Buffer.from(value).toString('base64url')}`,
      `basic=${Buffer.from(`x-access-token:${value}`).toString('base64')}`,
      `pct=${encodeURIComponent(value)}`,
      `json=${JSON.stringify({ value })}`,
    ].join('\n');
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'text/plain', 'x-echo': auth, 'set-cookie': `t=${encodeURIComponent(value)}` };
    if (req.url === '/gzip') res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(zlib.gzipSync(body));
    else if (req.url === '/br') res.writeHead(200, { ...headers, 'content-encoding': 'br' }).end(zlib.brotliCompressSync(body));
    else res.writeHead(200, headers).end(body);
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

describe.runIf(detection.available)('a credential host that echoes the request', () => {
  it('puts no form of the value into stdout, a workspace file, the bash result or the audit', async () => {
    const s = await rt.openSession({
      workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required', user: 'alice',
      net: [`127.0.0.1:${port}`], credentials: { TOKEN: { value: SECRET, hosts: [`127.0.0.1:${port}`] } },
    });
    received.length = 0;
    const url = `http://127.0.0.1:${port}`;
    const command = [
      `curl -sS -m 5 -i -H "Authorization: Bearer $TOKEN" ${url}/plain`,
      `curl -sS -m 5 --compressed -H "Authorization: Bearer $TOKEN" ${url}/gzip -o echo-gzip.txt`,
      `curl -sS -m 5 -H "Authorization: Bearer $TOKEN" ${url}/gzip -o echo-gzip-raw.bin`,
      `curl -sS -m 5 --compressed -H "Authorization: Bearer $TOKEN" ${url}/br -D echo-br-headers.txt -o echo-br.txt`,
      'cat echo-gzip.txt; gzip -dc echo-gzip-raw.bin 2>/dev/null || cat echo-gzip-raw.bin',
    ].join('; ');
    const result = await s.call('bash', { command });
    expect(result.isError, textOf(result)).toBeFalsy();
    const stdout = String(result.structuredContent?.['stdout']);
    // Near miss: the credential still authenticates, and what came back is there, with the placeholder.
    expect(received).toEqual(Array<string>(4).fill(`Bearer ${SECRET}`));
    expect(stdout).toMatch(/auth=Bearer toolwarden-credential-TOKEN-[0-9a-f]{32}/);
    expect(stdout).toContain('x-echo: Bearer toolwarden-credential-TOKEN-');
    const files = readdirSync(ws.root).filter((name) => name.startsWith('echo-')).map((name) => readFileSync(join(ws.root, name)).toString('latin1'));
    expect(files).toHaveLength(4);
    for (const text of [stdout, JSON.stringify(result), ...files]) {
      for (const form of forms()) expect(text).not.toContain(form);
    }
    await s.close();
    for (const form of forms()) expect(JSON.stringify(events)).not.toContain(form);
  });

  it('web_fetch returns the echo with the placeholder, never the value', async () => {
    const s = await rt.openSession({
      workspaceRoot: ws.root, tools: ['bash', 'web_fetch'], sandbox: 'required',
      net: [`127.0.0.1:${port}`], credentials: { TOKEN: { value: SECRET, hosts: [`127.0.0.1:${port}`] } },
    });
    const placeholder = String((await s.call('bash', { command: 'printf %s "$TOKEN"' })).structuredContent?.['stdout']);
    received.length = 0;
    for (const route of ['plain', 'gzip', 'br']) {
      const fetched = await s.call('web_fetch', { url: `http://127.0.0.1:${port}/${route}`, headers: { authorization: `Bearer ${placeholder}`, 'accept-encoding': 'gzip, br' } });
      expect(fetched.isError, textOf(fetched)).toBeFalsy();
      expect(textOf(fetched)).toContain(`auth=Bearer ${placeholder}`);
      for (const form of forms()) expect(JSON.stringify(fetched)).not.toContain(form);
    }
    expect(received).toEqual(Array<string>(3).fill(`Bearer ${SECRET}`));
    await s.close();
    for (const form of forms()) expect(JSON.stringify(events)).not.toContain(form);
  });
});
