import { createHistogram } from 'node:perf_hooks';
import type { Session } from '../runtime/index.js';
import { summarize, type Summary } from './stats.js';

/** One call a session makes under load. */
export interface LoadCall {
  /** Label the latency is filed under (the tool name). */
  kind: string;
  tool: string;
  args: Record<string, unknown>;
}

/** What a load produced: latencies by kind, failures and the wall time. */
export interface LoadOutcome {
  latencies: Map<string, number[]>;
  failures: number;
  /** First few failure texts, for the report. */
  failureSamples: string[];
  wallMs: number;
  calls: number;
}

/**
 * Runs every session's calls at once: each session makes its own calls one after another, all sessions in parallel.
 * `callsOf(index)` gives the calls of session `index`.
 */
export async function runSessionLoad(sessions: readonly Session[], callsOf: (index: number) => readonly LoadCall[]): Promise<LoadOutcome> {
  const outcome: LoadOutcome = { latencies: new Map(), failures: 0, failureSamples: [], wallMs: 0, calls: 0 };
  const started = performance.now();
  await Promise.all(sessions.map(async (session, index) => {
    for (const call of callsOf(index)) {
      const callStarted = performance.now();
      const result = await session.call(call.tool, call.args);
      pushTo(outcome.latencies, call.kind, performance.now() - callStarted);
      outcome.calls += 1;
      if (result.isError) {
        outcome.failures += 1;
        if (outcome.failureSamples.length < 3) outcome.failureSamples.push(`${call.kind}: ${JSON.stringify(result.content).slice(0, 200)}`);
      }
    }
  }));
  outcome.wallMs = performance.now() - started;
  return outcome;
}

/**
 * Runs `concurrency` loops of `perLoop` in-process operations at once (`operation` is given its loop's index);
 * returns per-operation latencies and wall time.
 */
export async function runInProcessLoad(concurrency: number, perLoop: number, operation: (loop: number) => Promise<unknown>): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async (_, loop) => {
    for (let i = 0; i < perLoop; i += 1) {
      const callStarted = performance.now();
      await operation(loop);
      latencies.push(performance.now() - callStarted);
    }
  }));
  return { latencies, wallMs: performance.now() - started };
}

/** Tracks the peak RSS while running, sampling every few milliseconds. */
export class RssPeak {
  #peak = process.memoryUsage.rss();
  readonly #timer: NodeJS.Timeout;

  constructor(intervalMs = 20) {
    this.#timer = setInterval(() => this.#sample(), intervalMs);
  }

  /** Stops sampling and returns the peak RSS in bytes. */
  stop(): number {
    clearInterval(this.#timer);
    this.#sample();
    return this.#peak;
  }

  #sample(): void {
    this.#peak = Math.max(this.#peak, process.memoryUsage.rss());
  }
}

const LOOP_DELAY_RESOLUTION_MS = 1;

/**
 * The main thread's event-loop delay, recorded only while running and pooled over every run: a timer every
 * millisecond notes how much later than that it fires. (monitorEventLoopDelay cannot pause: re-enabled, it records
 * the whole time it was off as one delay, which made a candidate's short turns look like 100 ms stalls.)
 */
export class LoopDelayRecorder {
  readonly #histogram = createHistogram();
  #timer: NodeJS.Timeout | undefined;
  #last = 0;

  /** Records while `work` runs. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.#last = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const delayMs = now - this.#last - LOOP_DELAY_RESOLUTION_MS;
      this.#last = now;
      this.#histogram.record(Math.max(1, Math.round(delayMs * 1e6)));
    }, LOOP_DELAY_RESOLUTION_MS);
    try {
      return await work();
    } finally {
      clearInterval(this.#timer);
    }
  }

  /** The delays recorded so far, in ms. */
  summary(): Summary {
    const histogram = this.#histogram;
    if (histogram.count === 0) return summarize([]);
    const ms = (ns: number): number => (ns <= 1 ? 0 : ns / 1e6);
    return { n: histogram.count, p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), mean: ms(histogram.mean), min: ms(histogram.min), max: ms(histogram.max) };
  }
}

function pushTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
