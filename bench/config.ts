import type { SamplePlan } from './measure.js';

/** Sizes and round counts of a run; `--quick` scales them down to finish within about two minutes on 2 cores. */
export interface BenchSizes {
  /** Scenario 1: rounds of opens (one of each variant per round). */
  opens: number;
  /** Scenario 2: calls per operation. */
  roundTrip: SamplePlan;
  /** Scenario 3: session counts; rounds of the read-only comparison and of the mixed load; calls per session per turn. */
  sessionCounts: readonly number[];
  loadRounds: number;
  mixedRounds: number;
  readsPerSession: number;
  mixedPerSession: number;
  /** Scenario 4: files in the generated tree, and walks per operation. */
  treeFiles: number;
  walks: SamplePlan;
  /** Scenario 5: commands per variant. */
  execs: SamplePlan;
  /** Scenario 6: calls per operation over stdio, and over Streamable HTTP (a call there costs several stdio ones). */
  peerCalls: SamplePlan;
  peerHttpCalls: SamplePlan;
  /** Scenario 8: requests per variant. */
  requests: SamplePlan;
}

// Every comparison runs at least three rounds, so its median stands on more than one turn of each candidate.
const FULL: BenchSizes = {
  opens: 30,
  roundTrip: { warmup: 200, rounds: 10, perRound: 100 },
  sessionCounts: [1, 16, 64, 256],
  loadRounds: 5,
  mixedRounds: 3,
  readsPerSession: 40,
  mixedPerSession: 8,
  treeFiles: 10_000,
  walks: { warmup: 1, rounds: 5, perRound: 2 },
  execs: { warmup: 5, rounds: 6, perRound: 10 },
  peerCalls: { warmup: 100, rounds: 10, perRound: 50 },
  peerHttpCalls: { warmup: 50, rounds: 10, perRound: 25 },
  requests: { warmup: 50, rounds: 10, perRound: 100 },
};

const QUICK: BenchSizes = {
  opens: 8,
  roundTrip: { warmup: 50, rounds: 4, perRound: 50 },
  sessionCounts: [1, 16, 64],
  loadRounds: 3,
  mixedRounds: 1,
  readsPerSession: 20,
  mixedPerSession: 4,
  treeFiles: 1_000,
  walks: { warmup: 1, rounds: 3, perRound: 1 },
  execs: { warmup: 2, rounds: 3, perRound: 4 },
  peerCalls: { warmup: 20, rounds: 4, perRound: 25 },
  peerHttpCalls: { warmup: 10, rounds: 4, perRound: 13 },
  requests: { warmup: 20, rounds: 4, perRound: 50 },
};

/** The sizes for a full or a quick run. */
export function sizesFor(quick: boolean): BenchSizes {
  return quick ? QUICK : FULL;
}
