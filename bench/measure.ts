import { cpuClock, type CpuClock } from './cpu.js';
import { summarize } from './stats.js';
import type { Figure, Unit } from './types.js';

/** An operation to time; it resolves when done. */
export type Operation = () => Promise<unknown>;

/** How many samples to take of each operation. */
export interface SamplePlan {
  /** Untimed runs of each operation first (JIT, caches, lazy loads). */
  warmup: number;
  /** Rounds; in each, every operation takes one turn (see runRounds). */
  rounds: number;
  /** Timed runs of each operation per turn. */
  perRound: number;
}

/** What one candidate did in one turn of a round. */
export interface Turn {
  /** Latency of each call, in ms (empty when a turn times only the whole). */
  latencies: number[];
  calls: number;
  wallMs: number;
  /** CPU over the turn, every thread of this process and the processes the clock counts, in µs. */
  cpuUs: number;
}

/** A candidate's turn: it makes its calls and says how many, with their latencies if timed one by one. */
export type TurnRunner = () => Promise<{ calls: number; latencies: number[] }>;

/** Options of {@link runRounds}. */
export interface RoundOptions {
  onRound?: (round: number) => void;
  /** @default cpuClock() — this process, its reaped children */
  cpu?: CpuClock;
}

/**
 * Runs the candidates in `rounds` rounds; in each, every candidate takes one turn, the order rotating by one from
 * round to round (A B C, B C A, C A B…) so neither drift nor the garbage one leaves behind lands on the same
 * candidate every time. Each turn's wall time and CPU are measured around it. Returns the turns by candidate.
 * @example const turns = await runRounds({ a: turnA, b: turnB }, 5); turns.a.length // 5
 */
export async function runRounds<K extends string>(runners: Record<K, TurnRunner>, rounds: number, options: RoundOptions = {}): Promise<Record<K, Turn[]>> {
  const keys = Object.keys(runners) as K[];
  const clock = options.cpu ?? cpuClock();
  const turns = Object.fromEntries(keys.map((key) => [key, [] as Turn[]])) as Record<K, Turn[]>;
  for (let round = 0; round < rounds; round += 1) {
    options.onRound?.(round);
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[(round + i) % keys.length] as K;
      const cpuBefore = clock();
      const started = performance.now();
      const { calls, latencies } = await runners[key]();
      const wallMs = performance.now() - started;
      turns[key].push({ latencies, calls, wallMs, cpuUs: clock() - cpuBefore });
    }
  }
  return turns;
}

/**
 * Times each operation one call at a time: `plan.warmup` untimed calls each, then `plan.rounds` rounds in which
 * each operation makes `plan.perRound` timed calls in its turn (see runRounds).
 * @example const { a, b } = await sampleInTurns({ a: opA, b: opB }, { warmup: 10, rounds: 5, perRound: 100 });
 */
export async function sampleInTurns<K extends string>(operations: Record<K, Operation>, plan: SamplePlan, options: RoundOptions = {}): Promise<Record<K, Turn[]>> {
  const keys = Object.keys(operations) as K[];
  for (const key of keys) {
    for (let i = 0; i < plan.warmup; i += 1) await operations[key]();
  }
  const runners = Object.fromEntries(keys.map((key) => [key, async () => {
    const latencies: number[] = [];
    for (let i = 0; i < plan.perRound; i += 1) latencies.push(await timeOnce(operations[key]));
    return { calls: latencies.length, latencies };
  }])) as Record<K, TurnRunner>;
  return runRounds(runners, plan.rounds, options);
}

/** Duration of one run of `operation`, in ms. */
export async function timeOnce(operation: Operation): Promise<number> {
  const started = performance.now();
  await operation();
  return performance.now() - started;
}

/** A figure from raw samples taken in one go (no rounds). */
export function figureOf(label: string, unit: Unit, samples: readonly number[]): Figure {
  return { label, unit, summary: summarize(samples) };
}

/** Latency figure of a candidate's turns: every call pooled for p99, each round's p50 for the median and spread. */
export function latencyFigure(label: string, turns: readonly Turn[]): Figure {
  return {
    label,
    unit: 'ms',
    summary: summarize(turns.flatMap((turn) => turn.latencies)),
    rounds: turns.map((turn) => summarize(turn.latencies).p50),
    cpuUsPerCall: turns.map(cpuPerCall),
  };
}

/** Throughput figure of a candidate's turns: calls per second of wall time, one value per round. */
export function rateFigure(label: string, turns: readonly Turn[]): Figure {
  const rates = turns.map((turn) => turn.calls / (turn.wallMs / 1000));
  return { label, unit: 'calls/s', summary: summarize(rates), rounds: rates, cpuUsPerCall: turns.map(cpuPerCall) };
}

/** CPU figure of a candidate's turns: µs of CPU per call, one value per round. */
export function cpuFigure(label: string, turns: readonly Turn[]): Figure {
  const perCall = turns.map(cpuPerCall);
  return { label, unit: 'us', summary: summarize(perCall), rounds: perCall };
}

function cpuPerCall(turn: Turn): number {
  return turn.calls === 0 ? Number.NaN : turn.cpuUs / turn.calls;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Throws when a benchmarked call resolved with a failure: a figure of failed calls would measure the wrong path. */
export function assertOk(result: { isError?: boolean }): void {
  if (result.isError) throw new Error(`a benchmarked call failed: ${JSON.stringify(result).slice(0, 500)}`);
}
