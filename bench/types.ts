import type { Summary } from './stats.js';

/** Unit of a figure: a latency, a rate, CPU microseconds per call, a size, or a plain count. */
export type Unit = 'ms' | 'calls/s' | 'us' | 'MB' | 'count';

/** One measured quantity: its statistics over the rounds of a run. */
export interface Figure {
  /** What was measured, e.g. `toolwarden read_file`. */
  label: string;
  unit: Unit;
  /** Every sample pooled (p99 and the charts' bars come from here). */
  summary: Summary;
  /** The figure's value in each round (a latency's p50, a rate), when it was measured in rounds; see headline(). */
  rounds?: number[];
  /** CPU per call in each round, in µs (every thread of the process, see bench/cpu.ts). */
  cpuUsPerCall?: number[];
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

/** A figure next to its baseline from the same run, with their ratio and the target, if any. */
export interface Row {
  name: string;
  figure: Figure;
  /** Absent for figures that stand alone (RSS per session, event-loop delay, failed calls). */
  baseline?: Figure;
  /** Median over the rounds of figure / baseline, each pair measured in the same round; see ratioOf(). */
  ratio?: number;
  /** The lowest and highest of the per-round ratios. */
  ratioSpread?: [number, number];
  target?: Target;
  /**
   * On a lean design's row: the name of the row it stands next to, checked against the same target if that row has
   * one, so a miss the code can fix (the lean design meets it) reads apart from one beyond the design (it misses it too).
   */
  leanFor?: string;
  /** On a target row whose baseline is itself the lean design: a miss is the code's by construction. */
  leanBaseline?: boolean;
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
