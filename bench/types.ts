import type { Summary } from './stats.js';

/** Unit of a figure: a latency, a rate, a size, or a plain count. */
export type Unit = 'ms' | 'calls/s' | 'MB' | 'count';

/** One measured quantity: its statistics over the rounds of a run. */
export interface Figure {
  /** What was measured, e.g. `toolwarden read_file`. */
  label: string;
  unit: Unit;
  summary: Summary;
}

/** A goal from issue 8 and whether this run met it. */
export interface Target {
  /** The goal as printed, e.g. `p50 <= 1.0x`. */
  text: string;
  /** What `actual` is: the ratio of medians, the difference of medians, or a statistic of the figure itself. */
  measure: 'ratio' | 'difference' | 'value';
  /** The value compared against `limit`. */
  actual: number;
  limit: number;
  /** `max`: actual must be at most limit; `min`: at least limit. */
  kind: 'max' | 'min';
  met: boolean;
}

/** A figure next to its baseline from the same run, with the ratio of their medians and the target, if any. */
export interface Row {
  name: string;
  figure: Figure;
  /** Absent for figures that stand alone (RSS per session, event-loop delay, failed calls). */
  baseline?: Figure;
  /** figure.p50 / baseline.p50. */
  ratio?: number;
  target?: Target;
}

/** Everything one scenario measured. */
export interface ScenarioResult {
  id: number;
  title: string;
  /** Sizes and caveats worth reading with the figures (scaled-down sizes in quick mode, sanity counts). */
  notes: string[];
  rows: Row[];
  /** Why the scenario did not run, when it could not. */
  skipped?: string;
  /** Wall time of the scenario, in seconds. */
  seconds: number;
}

/** The machine and run a results file describes. */
export interface RunHeader {
  date: string;
  node: string;
  cores: number;
  cpu: string;
  platform: string;
  totalMemoryMb: number;
  quick: boolean;
  scenarios: number[];
}

/** The JSON written to `bench/results/<timestamp>.json`. */
export interface RunResults {
  header: RunHeader;
  scenarios: ScenarioResult[];
}
