import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Session } from '../runtime/index.js';
import type { Summary } from './stats.js';

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

// Node records the whole interval between timer ticks, so the delay is what exceeds the resolution.
const LOOP_DELAY_RESOLUTION_MS = 1;

/** A main-thread event-loop delay histogram at 1 ms resolution, to enable only while a load runs. */
export function createLoopDelayMonitor(): IntervalHistogram {
  return monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
}

/** The histogram's statistics in ms of delay (the interval minus the resolution). */
export function summarizeLoopDelay(histogram: IntervalHistogram): Summary {
  const ms = (ns: number): number => Math.max(0, ns / 1e6 - LOOP_DELAY_RESOLUTION_MS);
  return {
    n: histogram.count,
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    mean: ms(histogram.mean),
    min: ms(histogram.min),
    max: ms(histogram.max),
  };
}

function pushTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
