import { headline, median } from './stats.js';
import type { Figure, Row, Target, Unit } from './types.js';

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
    case 'us':
      if (value >= 10_000) return `${(value / 1000).toFixed(1)} ms`;
      return `${value < 10 ? value.toPrecision(2) : Math.round(value)} us`;
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

/** Whether a row's target was met, in the words the report uses; a lean design's row says so apart. */
export function formatMet(row: Row): string {
  if (!row.target) return '-';
  if (row.leanFor !== undefined) return row.target.met ? 'lean meets' : 'lean misses';
  return row.target.met ? 'met' : 'MISSED';
}

/**
 * A figure's headline with the spread of its rounds and, for latencies, the pooled p99.
 * @example formatFigure(latencyFigure('x', turns)) // '0.244 ms [0.210..0.300], p99 3.14 ms'
 */
export function formatFigure(figure: Figure): string {
  const value = formatValue(headline(figure), figure.unit);
  const bound = (bound: number): string => withoutUnitOf(value, formatValue(bound, figure.unit));
  const spread = figure.rounds && figure.rounds.length > 1 ? ` [${bound(Math.min(...figure.rounds))}..${bound(Math.max(...figure.rounds))}]` : '';
  const p99 = figure.unit === 'ms' && figure.summary.n > 1 ? `, p99 ${formatValue(figure.summary.p99, figure.unit)}` : '';
  return `${value}${spread}${p99}`;
}

/** The median CPU per call of a figure's rounds, or '-' when it was not measured. */
export function formatCpu(figure: Figure | undefined): string {
  return figure?.cpuUsPerCall ? formatValue(median(figure.cpuUsPerCall), 'us') : '-';
}

/** A row's ratio with the spread of its per-round ratios. */
export function formatRowRatio(row: Row): string {
  const spread = row.ratioSpread ? ` [${formatRatio(row.ratioSpread[0])}..${formatRatio(row.ratioSpread[1])}]` : '';
  return `${formatRatio(row.ratio)}${spread}`;
}

// A spread's bound without its unit when the value printed before it carries the same one.
function withoutUnitOf(value: string, bound: string): string {
  const unit = (text: string): string => text.slice(text.indexOf(' '));
  return unit(bound) === unit(value) ? bound.slice(0, bound.indexOf(' ')) : bound;
}

/** The value a target compared: a ratio, or a difference or statistic in the figure's unit. */
export function formatTargetActual(target: Target, unit: Unit): string {
  return target.measure === 'ratio' ? formatRatio(target.actual) : formatValue(target.actual, unit);
}
