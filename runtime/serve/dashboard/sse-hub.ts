import type { ServerResponse } from 'node:http';

/** Bytes an event stream may have queued unsent before the slow client is dropped. */
const MAX_QUEUED_BYTES = 1024 * 1024;

/**
 * The dashboard's Server-Sent Events streams: at most `maxClients` at once, each sent every broadcast, a comment
 * line as heartbeat so proxies keep it open; a client that does not read is dropped instead of growing the queue.
 */
export class SseHub {
  readonly #clients = new Set<ServerResponse>();
  readonly #maxClients: number;
  readonly #heartbeat: NodeJS.Timeout;
  #closed = false;

  constructor(maxClients = 16, heartbeatMs = 15_000) {
    this.#maxClients = maxClients;
    this.#heartbeat = setInterval(() => this.#write(': heartbeat\n\n'), heartbeatMs).unref();
  }

  /** Streams open now. */
  get size(): number {
    return this.#clients.size;
  }

  /** Starts a stream on `res`; false (nothing written) when `maxClients` are already open. */
  open(res: ServerResponse, headers: Record<string, string>): boolean {
    if (this.#closed || this.#clients.size >= this.#maxClients) return false;
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.write('retry: 2000\n\n');
    this.#clients.add(res);
    res.once('close', () => this.#clients.delete(res));
    return true;
  }

  /** Sends one event to every stream, or to `only`. */
  send(event: string, data: unknown, only?: ServerResponse): void {
    const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    if (only !== undefined) only.write(text);
    else this.#write(text);
  }

  /** Ends every stream; the hub takes no more. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }

  #write(text: string): void {
    for (const res of this.#clients) {
      if (res.writableLength > MAX_QUEUED_BYTES) {
        this.#clients.delete(res);
        res.destroy();
      } else res.write(text);
    }
  }
}
