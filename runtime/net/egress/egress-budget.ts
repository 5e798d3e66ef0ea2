import type { VettedTarget } from '../resolve-vetted.js';
import { MeteredSocket } from './metered-socket.js';

/** The limit a refusal or a cut connection names. */
export type EgressLimit = 'egressMaxConnections' | 'egressMaxBytes';

/**
 * A session's egress limits as they are spent: bytes exchanged with the outside, both ways, every byte of every
 * connection out (request lines, headers, bodies, TLS records, tunnels), and connections out open at once. Connections
 * out are opened here only, to vetted targets only.
 */
export class EgressBudget {
  readonly limits: Readonly<Record<EgressLimit, number>>;
  #bytes = 0;
  #refused = false;
  #upstreams = 0;

  constructor(limits: Readonly<Record<EgressLimit, number>>) {
    this.limits = limits;
  }

  /** Whether the bytes are spent: a chunk was refused, or the cap is reached. */
  get bytesSpent(): boolean {
    const max = this.limits.egressMaxBytes;
    return this.#refused || (max > 0 && this.#bytes >= max);
  }

  /** Counts `n` bytes about to move; false (and from then on spent) when they would pass `limits.egressMaxBytes`. */
  take(n: number): boolean {
    const max = this.limits.egressMaxBytes;
    if (this.#refused || (max > 0 && this.#bytes + n > max)) {
      this.#refused = true;
      return false;
    }
    this.#bytes += n;
    return true;
  }

  /**
   * Opens a metered connection to a vetted target, or undefined when `limits.egressMaxConnections` connections out
   * are open already (requests pipelined on one client connection would otherwise open one each). `release` gives the
   * slot back before the socket has closed, once the exchange it served is over; it is given back on close anyway.
   */
  openUpstream(target: VettedTarget): { socket: MeteredSocket; release: () => void } | undefined {
    if (this.#upstreams >= this.limits.egressMaxConnections) return undefined;
    this.#upstreams += 1;
    const socket = new MeteredSocket(target, (n) => this.take(n));
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      this.#upstreams -= 1;
    };
    socket.once('close', release);
    return { socket, release };
  }

  /** The refusal text for a limit. */
  message(limit: EgressLimit): string {
    return limit === 'egressMaxConnections'
      ? `egress: the session already has ${this.limits.egressMaxConnections} connections open (limits.egressMaxConnections)`
      : `egress: the session has moved its ${this.limits.egressMaxBytes} bytes (limits.egressMaxBytes)`;
  }
}
