import { describe, expect, it } from 'vitest';
import { createBoundedFetch } from '../../runtime/mcp/bounded-fetch.js';

const LIMIT = 100;

function serve(body: string | null, contentType: string, chunk = 7): typeof fetch {
  return () => {
    const bytes = body === null ? null : new TextEncoder().encode(body);
    const stream = bytes === null ? null : new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(bytes.slice(i, i + chunk));
        controller.close();
      },
    });
    return Promise.resolve(new Response(stream, { status: body === null ? 204 : 200, headers: { 'content-type': contentType } }));
  };
}

async function read(body: string | null, contentType: string): Promise<string> {
  const bounded = createBoundedFetch(serve(body, contentType), LIMIT, () => new Error('past the bound'));
  return (await bounded('http://127.0.0.1/mcp')).text();
}

const event = (data: string, eol = '\n'): string => `event: message${eol}data: ${data}${eol}${eol}`;

describe('createBoundedFetch: no message of an HTTP MCP server passes the bound', () => {
  it.each([
    ['a JSON body past the bound', 'x'.repeat(LIMIT + 1), 'application/json'],
    ['an error body past the bound', 'e'.repeat(LIMIT * 3), 'text/plain'],
    ['one event past the bound', event('y'.repeat(LIMIT + 1)), 'text/event-stream'],
    ['an event that never ends', `data: ${'z'.repeat(LIMIT * 5)}`, 'text/event-stream; charset=utf-8'],
    ['an event whose lines end in CR only, with no blank line', `data: ${'a'.repeat(60)}\rdata: ${'b'.repeat(60)}\r`, 'text/event-stream'],
  ])('%s errors', async (_name, body, contentType) => {
    await expect(read(body, contentType)).rejects.toThrow();
  });

  it.each([
    ['a JSON body at the bound', 'x'.repeat(LIMIT), 'application/json'],
    ['many small events adding up past the bound', event('s'.repeat(40)).repeat(20), 'text/event-stream'],
    ['events separated by CRLF', event('c'.repeat(80), '\r\n').repeat(5), 'text/event-stream'],
    ['events separated by CR', event('r'.repeat(80), '\r').repeat(5), 'text/event-stream'],
  ])('near miss: %s passes whole', async (_name, body, contentType) => {
    expect(await read(body, contentType)).toBe(body);
  });

  it('a response without a body is passed on as it is', async () => {
    const bounded = createBoundedFetch(serve(null, 'application/json'), LIMIT, () => new Error('past the bound'));
    expect((await bounded('http://127.0.0.1/mcp')).status).toBe(204);
  });
});
