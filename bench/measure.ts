import { summarize } from './stats.js';
import type { Figure, Unit } from './types.js';

/** An operation to time; it resolves when done. */
export type Operation = () => Promise<unknown>;

/** How many samples to take of each operation. */
export interface SamplePlan {
  /** Untimed runs of each operation first (JIT, caches, lazy loads). */
  warmup: number;
  /** Blocks of timed runs; the operations take turns block by block, so drift hits them alike. */
  blocks: number;
  /** Timed runs of each operation per block. */
  perBlock: number;
}

/**
 * Times each operation, one call at a time, taking turns block by block. Returns the durations in ms, by key.
 * @example const { a, b } = await sampleInTurns({ a: opA, b: opB }, { warmup: 10, blocks: 5, perBlock: 100 });
 */
export async function sampleInTurns<K extends string>(operations: Record<K, Operation>, plan: SamplePlan, onBlock?: (block: number) => void): Promise<Record<K, number[]>> {
  const keys = Object.keys(operations) as K[];
  const samples = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<K, number[]>;
  for (const key of keys) {
    for (let i = 0; i < plan.warmup; i += 1) await operations[key]();
  }
  for (let block = 0; block < plan.blocks; block += 1) {
    onBlock?.(block);
    for (const key of keys) {
      for (let i = 0; i < plan.perBlock; i += 1) samples[key].push(await timeOnce(operations[key]));
    }
  }
  return samples;
}

/** Duration of one run of `operation`, in ms. */
export async function timeOnce(operation: Operation): Promise<number> {
  const started = performance.now();
  await operation();
  return performance.now() - started;
}

/** A figure from raw samples. */
export function figureOf(label: string, unit: Unit, samples: readonly number[]): Figure {
  return { label, unit, summary: summarize(samples) };
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Throws when a benchmarked call resolved with a failure: a figure of failed calls would measure the wrong path. */
export function assertOk(result: { isError?: boolean }): void {
  if (result.isError) throw new Error(`a benchmarked call failed: ${JSON.stringify(result).slice(0, 500)}`);
}
