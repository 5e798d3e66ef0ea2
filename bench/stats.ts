import type { Figure } from './types.js';

/** Order statistics of one series of samples (times in ms, or rates). */
export interface Summary {
  /** Number of samples. */
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/**
 * Summarizes samples with nearest-rank percentiles (p99 of fewer than 100 samples is their maximum).
 * @example summarize([3, 1, 2]).p50 // 2
 */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) return { n: 0, p50: Number.NaN, p99: Number.NaN, mean: Number.NaN, min: Number.NaN, max: Number.NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: total / sorted.length,
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Nearest-rank percentile of already sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** A summary whose every statistic is `value` (for figures measured once per run, like an RSS delta). */
export function single(value: number): Summary {
  return { n: 1, p50: value, p99: value, mean: value, min: value, max: value };
}

/**
 * The value a figure stands for: the median of its rounds when it was measured in rounds, else its p50.
 * @example headline({ label: 'x', unit: 'ms', summary: summarize([9]), rounds: [3, 1, 2] }) // 2
 */
export function headline(figure: Figure): number {
  return figure.rounds ? median(figure.rounds) : figure.summary.p50;
}

/** Median of a list (the lower middle of an even count, as nearest-rank p50). */
export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}
