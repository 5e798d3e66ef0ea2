import type { SamplePlan } from './measure.js';

/** Sizes and round counts of a run; `--quick` scales them down to finish within a minute on 2 cores. */
export interface BenchSizes {
  /** Scenario 1: timed opens per variant. */
  opens: number;
  /** Scenario 2: calls per operation. */
  roundTrip: SamplePlan;
  /** Scenario 3: session counts, load rounds, and calls per session per round. */
  sessionCounts: readonly number[];
  loadRounds: number;
  readsPerSession: number;
  mixedPerSession: number;
  /** Scenario 4: files in the generated tree, and walks per operation. */
  treeFiles: number;
  walks: SamplePlan;
  /** Scenario 5: commands per variant. */
  execs: SamplePlan;
  /** Scenario 6: calls per operation over stdio. */
  peerCalls: SamplePlan;
}

const FULL: BenchSizes = {
  opens: 30,
  roundTrip: { warmup: 200, blocks: 10, perBlock: 100 },
  sessionCounts: [1, 16, 64, 256],
  loadRounds: 3,
  readsPerSession: 20,
  mixedPerSession: 8,
  treeFiles: 10_000,
  walks: { warmup: 1, blocks: 4, perBlock: 2 },
  execs: { warmup: 5, blocks: 6, perBlock: 10 },
  peerCalls: { warmup: 100, blocks: 10, perBlock: 50 },
};

const QUICK: BenchSizes = {
  opens: 8,
  roundTrip: { warmup: 50, blocks: 4, perBlock: 50 },
  sessionCounts: [1, 16, 64],
  loadRounds: 1,
  readsPerSession: 10,
  mixedPerSession: 4,
  treeFiles: 1_000,
  walks: { warmup: 1, blocks: 2, perBlock: 2 },
  execs: { warmup: 2, blocks: 2, perBlock: 6 },
  peerCalls: { warmup: 20, blocks: 4, perBlock: 25 },
};

/** The sizes for a full or a quick run. */
export function sizesFor(quick: boolean): BenchSizes {
  return quick ? QUICK : FULL;
}
