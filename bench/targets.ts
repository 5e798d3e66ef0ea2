import type { Figure, Row, Target } from './types.js';

/** A target the median ratio figure/baseline must stay under (`max`) or above (`min`). */
export interface RatioGoal {
  kind: 'max' | 'min';
  limit: number;
}

/** Builds a row comparing `figure` with `baseline` by the ratio of their medians, checked against `goal` if given. */
export function compareRow(name: string, figure: Figure, baseline: Figure, goal?: RatioGoal): Row {
  const ratio = figure.summary.p50 / baseline.summary.p50;
  const row: Row = { name, figure, baseline, ratio };
  if (goal) row.target = checkTarget(`p50 ${goal.kind === 'max' ? '<=' : '>='} ${goal.limit}x baseline`, 'ratio', ratio, goal.limit, goal.kind);
  return row;
}

/** Builds a row whose target bounds the median difference figure - baseline (e.g. "adds at most 5 ms"). */
export function differenceRow(name: string, figure: Figure, baseline: Figure, maxAdded: number): Row {
  const added = figure.summary.p50 - baseline.summary.p50;
  return {
    name,
    figure,
    baseline,
    ratio: figure.summary.p50 / baseline.summary.p50,
    target: checkTarget(`adds <= ${maxAdded} ${figure.unit} at p50`, 'difference', added, maxAdded, 'max'),
  };
}

/** Builds a row for a figure without a baseline, with an absolute bound on one of its statistics. */
export function absoluteRow(name: string, figure: Figure, stat: 'p50' | 'p99' | 'max', kind: 'max' | 'min', limit: number): Row {
  const sign = kind === 'max' ? '<=' : '>=';
  return { name, figure, target: checkTarget(`${stat} ${sign} ${limit} ${figure.unit}`, 'value', figure.summary[stat], limit, kind) };
}

/** A row with no target: context next to the targeted figures. */
export function infoRow(name: string, figure: Figure, baseline?: Figure): Row {
  return baseline ? { name, figure, baseline, ratio: figure.summary.p50 / baseline.summary.p50 } : { name, figure };
}

function checkTarget(text: string, measure: Target['measure'], actual: number, limit: number, kind: 'max' | 'min'): Target {
  const met = Number.isFinite(actual) && (kind === 'max' ? actual <= limit : actual >= limit);
  return { text, measure, actual, limit, kind, met };
}

/**
 * Says whether a ratio target is within reach of the design at all on this machine: `ceiling` is the same work done
 * the design's way with nothing of toolwarden's in between (see bench/baselines.ts), compared with the same
 * `baseline`. The target stays as it is; the note only tells a miss the code can fix from one it cannot.
 */
export function ceilingNote(what: string, ceiling: Figure, baseline: Figure, goal: RatioGoal): string {
  const ratio = ceiling.summary.p50 / baseline.summary.p50;
  const reachable = goal.kind === 'max' ? ratio <= goal.limit : ratio >= goal.limit;
  const verdict = reachable ? 'within reach of the design here' : 'beyond what the design reaches on this machine';
  return `${what}: the design ceiling (${ceiling.label}) is ${ratio.toFixed(2)}x ${baseline.label}, so the ${goal.kind === 'max' ? '<=' : '>='} ${goal.limit}x target is ${verdict}`;
}
