import type { BenchSizes } from '../config.js';
import type { Row } from '../types.js';

/** What every scenario gets from the bench program. */
export interface ScenarioContext {
  quick: boolean;
  sizes: BenchSizes;
  /** A temp directory of this run, removed at the end. */
  scratch: string;
  /** Reports progress on stderr, prefixed with the scenario. */
  progress: (message: string) => void;
}

/** What a scenario measured, before the bench program adds its id, title and wall time. */
export interface ScenarioOutcome {
  rows: Row[];
  notes: string[];
  /** Set when the scenario could not run here, saying why. */
  skipped?: string;
}

/** One numbered scenario of issue 8. */
export interface Scenario {
  id: number;
  title: string;
  run(context: ScenarioContext): Promise<ScenarioOutcome>;
}
