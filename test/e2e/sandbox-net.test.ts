import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';
import { DRIVER_USERS, giveToNobody, runSandboxed } from '../helpers/run-sandboxed.js';

// Network permission: a local server on 127.0.0.1 counts the requests that reach it.
let rt: Runtime;
let ws: TempTree;
let server: http.Server;
let port: number;
let hits: string[] = [];

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
  ws = makeTempTree('tw-sbx-net', {});
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/to-localhost') {
      res.writeHead(302, { location: `http://localhost:${port}/landed` }).end();
    } else if (req.url === '/to-self') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/landed` }).end();
    } else {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`hello ${req.url}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
beforeEach(() => {
  hits = [];
});
afterAll(async () => {
  await rt.close();
  await new Promise((resolve) => server.close(resolve));
  ws.cleanup();
});

describe('sandboxed commands', () => {
  const curl = (): string => `curl -s -m 3 http://127.0.0.1:${port}/from-curl`;
  const node = (): string => `node -e "fetch('http://127.0.0.1:${port}/from-node').then(r => r.text()).then(console.log, e => { console.error(e.cause?.code ?? e.message); process.exit(7) })"`;

  it.each([
    ['no net', false, 'curl', curl, false],
    ['no net', false, 'node fetch', node, false],
    ['only some hosts (through the egress proxy)', ['127.0.0.1'], 'curl', curl, true],
    ['only some hosts (node fetch ignores the proxy variables: fails closed)', ['127.0.0.1'], 'node fetch', node, false],
    ['every host', ['*'], 'curl', curl, true],
    ['every host', ['*'], 'node fetch', node, true],
  ] as const)('with %s, %s reaches the server: %s', async (_name, net, _client, command, reaches) => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required', net: net === false ? false : [...net] });
    const result = await s.call('bash', { command: command() });
    expect(result.isError, textOf(result)).toBeFalsy();
    if (reaches) {
      expect(result.structuredContent?.['stdout']).toMatch(/^hello \/from-/);
      expect(hits).toHaveLength(1);
    } else {
      expect(result.structuredContent?.['exitCode']).not.toBe(0);
      expect(hits).toEqual([]);
    }
    await s.close();
  });
});

describe('UDP from inside the sandbox', () => {
  // No route out of the network namespace: a datagram to 127.0.0.1 reaches the namespace's own loopback, never the
  // host's. Only with '*' (the host network) does it arrive, which shows the probe can see one. As root and as nobody.
  it.each(DRIVER_USERS.flatMap((user) => [
    [user, 'no net', false, false],
    [user, 'a host list (the egress proxy carries TCP only)', ['127.0.0.1'], false],
    [user, 'every host', ['*'], true],
  ] as const))('as %s, with %s (net %j), a datagram to a host listener on 127.0.0.1 arrives: %s', async (user, _name, net, arrives) => {
    const listener = dgram.createSocket('udp4');
    const received: string[] = [];
    listener.on('message', (message) => received.push(message.toString()));
    await new Promise<void>((resolve) => listener.bind(0, '127.0.0.1', resolve));
    const udpPort = listener.address().port;
    const root = makeTempTree('tw-sbx-udp', {});
    try {
      if (user === 'nobody') giveToNobody(root.root);
      const send = `const s = require('dgram').createSocket('udp4'); let n = 0; const go = () => s.send('udp-probe', ${udpPort}, '127.0.0.1', (e) => { if (e) console.log(e.code); if (++n < 3) go(); else s.close(); }); go();`;
      const [result] = await runSandboxed(user, root.root, [`node -e "${send}"; echo sent`], { net: net === false ? false : [...net] });
      expect(result?.stdout, result?.text).toContain('sent');
      // Loopback delivery is immediate; the driver's session close gives it ample time.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received.length > 0).toBe(arrives);
    } finally {
      listener.close();
      root.cleanup();
    }
  });
});

describe('web_fetch', () => {
  const open = (net: false | string[]) => rt.openSession({ workspaceRoot: ws.root, tools: ['web_fetch'], net });

  it('fetches from an allowed host (loopback listed explicitly)', async () => {
    const s = await open([`127.0.0.1:${port}`]);
    const result = await s.call('web_fetch', { url: `http://127.0.0.1:${port}/page` });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toContain('hello /page');
    expect(hits).toEqual(['/page']);
    await s.close();
  });

  it.each([
    ['no net at all', false, () => `http://127.0.0.1:${port}/page`],
    ['another port on an allowed host', ['127.0.0.1:1'], () => `http://127.0.0.1:${port}/page`],
    ['a host not listed', ['example.com'], () => `http://127.0.0.1:${port}/page`],
    ['a named host resolving to loopback, unlisted', ['*'], () => `http://localhost:${port}/page`],
  ] as const)('refuses %s with NET_DENIED before connecting', async (_name, net, url) => {
    const s = await open(net === false ? false : [...net]);
    const result = await s.call('web_fetch', { url: url() });
    expect(result).toMatchObject({ isError: true, code: 'NET_DENIED' });
    expect(hits).toEqual([]);
    await s.close();
  });

  it('re-checks the host on a redirect and refuses one to a denied host', async () => {
    const s = await open([`127.0.0.1:${port}`]);
    const result = await s.call('web_fetch', { url: `http://127.0.0.1:${port}/to-localhost` });
    expect(result).toMatchObject({ isError: true, code: 'NET_DENIED' });
    expect(textOf(result)).toContain('localhost');
    expect(hits).toEqual(['/to-localhost']);
    await s.close();
  });

  it('follows a redirect to an allowed host', async () => {
    const s = await open([`127.0.0.1:${port}`]);
    const result = await s.call('web_fetch', { url: `http://127.0.0.1:${port}/to-self` });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toContain('hello /landed');
    expect(hits).toEqual(['/to-self', '/landed']);
    await s.close();
  });
});
