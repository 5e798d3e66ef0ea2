import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

const CR = 0x0d;
const LF = 0x0a;

/**
 * A fetch for a Streamable HTTP server whose response bodies hold no message over `maxBytes`: a JSON (or error) body
 * counts whole, an event stream counts per event (up to its blank line). Past the limit the body errors with what
 * `overflow()` returns (it also tells the connection, which closes), so a server cannot make the host buffer without
 * bound.
 * @example new StreamableHTTPClientTransport(url, { fetch: createBoundedFetch(fetch, 9_437_184, () => error) })
 */
export function createBoundedFetch(baseFetch: FetchLike, maxBytes: number, overflow: () => Error): FetchLike {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    // A body-less or opaque response (a manual redirect) is passed on as it is.
    if (response.body === null || response.status < 200) return response;
    const events = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
    const body = response.body.pipeThrough(limitBytes(maxBytes, events, overflow));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function limitBytes(maxBytes: number, perEvent: boolean, overflow: () => Error): TransformStream<Uint8Array, Uint8Array> {
  let count = 0;
  let lineEmpty = true;
  let afterCr = false;
  return new TransformStream({
    transform(chunk, controller) {
      if (!perEvent) count += chunk.byteLength;
      else {
        for (const byte of chunk) {
          if (byte === LF && afterCr) {
            afterCr = false;
            continue;
          }
          afterCr = byte === CR;
          if (byte === CR || byte === LF) {
            // A blank line ends an event: the next one starts counting afresh.
            if (lineEmpty) count = 0;
            lineEmpty = true;
            continue;
          }
          lineEmpty = false;
          count += 1;
        }
      }
      if (count > maxBytes) controller.error(overflow());
      else controller.enqueue(chunk);
    },
  });
}
