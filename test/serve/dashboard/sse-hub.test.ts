import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseHub } from '../../../runtime/serve/dashboard/sse-hub.js';

let server: http.Server | undefined;
let hub: SseHub | undefined;
afterEach(async () => {
  hub?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
});

async function serve(maxClients: number): Promise<string> {
  const sse = new SseHub(maxClients, 60_000);
  hub = sse;
  server = http.createServer((_req, res) => {
    if (!sse.open(res, {})) res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('SseHub', () => {
  it('takes at most maxClients streams and frees a place when one leaves', async () => {
    const url = await serve(2);
    const a = new AbortController();
    const [one, two] = await Promise.all([fetch(url, { signal: a.signal }), fetch(url)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect((await fetch(url)).status).toBe(503);
    a.abort();
    await expect.poll(() => hub!.size).toBe(1);
    expect((await fetch(url)).status).toBe(200);
  });

  it('sends each event to every stream as event/data lines', async () => {
    const url = await serve(4);
    const res = await fetch(url);
    await expect.poll(() => hub!.size).toBe(1);
    hub!.send('audit', { tool: 'bash', decision: 'deny' });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\nevent: audit')) text += new TextDecoder().decode((await reader.read()).value);
    while (!text.endsWith('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: audit\ndata: {"tool":"bash","decision":"deny"}\n\n');
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  });

  it('a closed hub opens no more streams', async () => {
    const url = await serve(4);
    hub!.close();
    expect((await fetch(url)).status).toBe(503);
  });
});
