import { headline, median } from './stats.js';
import type { Figure, Row, Target } from './types.js';

/** A target the ratio figure/baseline must stay under (`max`) or above (`min`). */
export interface RatioGoal {
  kind: 'max' | 'min';
  limit: number;
}

/**
 * The ratio figure/baseline: when both were measured in the same rounds, the median of the per-round ratios (each
 * pair ran side by side, so a busy spell hits both) with their lowest and highest; else the ratio of headlines.
 */
export function ratioOf(figure: Figure, baseline: Figure): { ratio: number; spread?: [number, number] } {
  const a = figure.rounds;
  const b = baseline.rounds;
  if (!a || !b || a.length !== b.length || a.length === 0) return { ratio: headline(figure) / headline(baseline) };
  const ratios = a.map((value, round) => value / (b[round] as number));
  return { ratio: median(ratios), spread: [Math.min(...ratios), Math.max(...ratios)] };
}

/** Builds a row comparing `figure` with `baseline` by their ratio (see ratioOf), checked against `goal` if given. */
export function compareRow(name: string, figure: Figure, baseline: Figure, goal?: RatioGoal): Row {
  const { ratio, spread } = ratioOf(figure, baseline);
  const row: Row = { name, figure, baseline, ratio };
  if (spread) row.ratioSpread = spread;
  if (goal) row.target = checkTarget(`${goal.kind === 'max' ? '<=' : '>='} ${goal.limit}x baseline`, 'ratio', ratio, goal.limit, goal.kind);
  return row;
}

/** Builds a row whose target bounds the difference of headlines figure - baseline (e.g. "adds at most 5 ms"). */
export function differenceRow(name: string, figure: Figure, baseline: Figure, maxAdded: number): Row {
  const added = headline(figure) - headline(baseline);
  return { ...compareRow(name, figure, baseline), target: checkTarget(`adds <= ${maxAdded} ${figure.unit}`, 'difference', added, maxAdded, 'max') };
}

/** Builds a row for a figure without a baseline, with an absolute bound on one of its statistics. */
export function absoluteRow(name: string, figure: Figure, stat: 'p50' | 'p99' | 'max', kind: 'max' | 'min', limit: number): Row {
  const sign = kind === 'max' ? '<=' : '>=';
  const actual = stat === 'p50' ? headline(figure) : figure.summary[stat];
  return { name, figure, target: checkTarget(`${stat} ${sign} ${limit} ${figure.unit}`, 'value', actual, limit, kind) };
}

/** A row with no target: context next to the targeted figures. */
export function infoRow(name: string, figure: Figure, baseline?: Figure): Row {
  return baseline ? compareRow(name, figure, baseline) : { name, figure };
}

/**
 * Marks `row` (built with the same target as `target`, if it has one) as the lean design's row next to that row.
 * @example rows.push(target, leanOf(target, compareRow('lean SharedArrayBuffer', lean, baseline, goal)));
 */
export function leanOf(target: Row, row: Row): Row {
  return { ...row, leanFor: target.name };
}

/** Marks a target row whose baseline is the lean design itself. */
export function againstLean(row: Row): Row {
  return { ...row, leanBaseline: true };
}

function checkTarget(text: string, measure: Target['measure'], actual: number, limit: number, kind: 'max' | 'min'): Target {
  const met = Number.isFinite(actual) && (kind === 'max' ? actual <= limit : actual >= limit);
  return { text, measure, actual, limit, kind, met };
}
