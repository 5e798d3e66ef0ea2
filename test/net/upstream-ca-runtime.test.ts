import { writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type RuntimeOptions } from '../../runtime/index.js';
import { loadServeConfig } from '../../runtime/serve/load-serve-config.js';
import { runtimeOptionsFrom } from '../../runtime/serve/runtime-from-config.js';
import { makePrivateCa, type PrivateCa } from '../helpers/private-ca.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// `upstreamCa` from createRuntime and from the serve config down to a session's web_fetch: a credential host on
// loopback whose certificate a private CA signed is reached only with the option; a bad PEM fails at once, named.
const SECRET = 'runtime-upstream-ca-S3cret';
let ca: PrivateCa;
let server: https.Server;
let host = '';
let ws: TempTree;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  ws = makeTempTree('tw-upstream-ca-runtime', {});
  ca = makePrivateCa('Private upstream CA');
  server = https.createServer(ca.leaf(['IP:127.0.0.1']), (req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('private api');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  ca.cleanup();
  ws.cleanup();
});

async function fetchThrough(options: RuntimeOptions): Promise<{ code: string | undefined; sent: string | undefined }> {
  const rt = await createRuntime({ idleWorkers: 0, sandbox: 'off', ...options });
  try {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['web_fetch'], net: [host], credentials: { TOKEN: { value: SECRET, hosts: [host] } } });
    seen.length = 0;
    const result = await s.call('web_fetch', { url: `https://${host}/`, headers: { authorization: 'Bearer ${credential.TOKEN}' } });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    return { code: result.code, sent: seen.at(-1)?.authorization };
  } finally {
    await rt.close();
  }
}

describe('upstreamCa through a runtime', () => {
  it('createRuntime({ upstreamCa }) lets web_fetch reach the credential host', async () => {
    await expect(fetchThrough({ upstreamCa: ca.certPem })).resolves.toEqual({ code: undefined, sent: `Bearer ${SECRET}` });
  });

  it('without it the host is refused, as before', async () => {
    await expect(fetchThrough({})).resolves.toEqual({ code: 'IO_ERROR', sent: undefined });
  });

  it('the serve config names a PEM file, relative to the config', async () => {
    writeFileSync(ws.at('ca.pem'), ca.certPem);
    writeFileSync(ws.at('serve.json'), JSON.stringify({ upstreamCa: 'ca.pem' }));
    await expect(fetchThrough(runtimeOptionsFrom(loadServeConfig(ws.at('serve.json'))))).resolves.toEqual({ code: undefined, sent: `Bearer ${SECRET}` });
  });

  it.each<[string, RuntimeOptions, RegExp]>([
    ['text that is not PEM', { upstreamCa: 'not a pem' }, /^upstreamCa holds no PEM certificate/],
    ['a list with a bad entry', { upstreamCa: ['x'] }, /^upstreamCa\[0\] holds no PEM certificate/],
    ['a number', { upstreamCa: 7 as unknown as string }, /^upstreamCa must be PEM text/],
  ])('createRuntime refuses %s with INVALID_OPTIONS naming upstreamCa', async (_name, options, message) => {
    await expect(createRuntime({ idleWorkers: 0, ...options })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(message) });
  });

  it.each<[string, () => unknown, RegExp]>([
    ['a missing file', () => 'missing.pem', /upstreamCa: .*missing\.pem cannot be read/],
    ['a file that is not PEM', () => (writeFileSync(ws.at('bad.pem'), 'nope'), 'bad.pem'), /upstreamCa \(.*bad\.pem\) holds no PEM certificate/],
    ['a private key in the file', () => (writeFileSync(ws.at('key.pem'), ca.leaf(['x.test']).key), 'key.pem'), /upstreamCa \(.*key\.pem\) holds a PRIVATE KEY block/],
    ['not a path', () => 42, /upstreamCa must be the path of a PEM file or a list of paths/],
  ])('the serve config refuses %s, naming upstreamCa', (_name, value, message) => {
    writeFileSync(ws.at('serve.json'), JSON.stringify({ upstreamCa: value() }));
    expect(() => runtimeOptionsFrom(loadServeConfig(ws.at('serve.json')))).toThrow(message);
  });
});
