import type { Target, Unit } from './types.js';

/**
 * A value with its unit, rounded for reading (three significant digits for small latencies).
 * @example formatValue(0.01234, 'ms') // '0.0123 ms'
 */
export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return 'n/a';
  switch (unit) {
    case 'ms':
      return `${value < 10 ? value.toPrecision(3) : value.toFixed(value < 100 ? 1 : 0)} ms`;
    case 'calls/s':
      return `${Math.round(value).toLocaleString('en-US')} calls/s`;
    case 'MB':
      return `${value.toFixed(2)} MB`;
    case 'count':
      return String(Math.round(value));
  }
}

/** A ratio of medians, e.g. `0.0123x`. */
export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined) return '-';
  if (!Number.isFinite(ratio)) return 'n/a';
  return `${ratio < 0.1 ? ratio.toPrecision(3) : ratio.toFixed(2)}x`;
}

/** Whether a target was met, in the words the report uses. */
export function formatMet(target: Target | undefined): string {
  if (!target) return '-';
  return target.met ? 'met' : 'MISSED';
}

/** The value a target compared: a ratio, or a difference or statistic in the figure's unit. */
export function formatTargetActual(target: Target, unit: Unit): string {
  return target.measure === 'ratio' ? formatRatio(target.actual) : formatValue(target.actual, unit);
}
