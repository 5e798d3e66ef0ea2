import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findViolations, hostView, type Violation } from './boundary.js';
import { CANARY, copyFixture, diffTrees, guardedDirs, snapshotTree, type FixtureLayout } from './fixture.js';
import { runSandboxed, type RunLimits } from './sandbox.js';
import { parseTrace } from './trace.js';

/** What running one allowed command for real showed. */
export interface Judgement {
  violations: Violation[];
  /** Changes in the canary, twin, home and read-root directories. */
  canaryChanges: string[];
  /** The canary marker appeared in the command's output. */
  canaryRead: boolean;
  exitCode: number | null;
  timedOut: boolean;
  touches: number;
  /** Set when the sandbox itself failed, so the run shows nothing either way. */
  error?: string;
}

/** Whether a judgement shows an escape. */
export function isEscape(j: Judgement): boolean {
  return j.violations.length > 0 || j.canaryChanges.length > 0 || j.canaryRead;
}

/** A fixture built once, copied fresh for every run; the template itself is never run in. */
export interface Bench {
  layout: FixtureLayout;
  /** Snapshots of the guarded directories of the template, to diff each run's copy against. */
  snapshots: Map<string, Map<string, string>>;
  scratchRoot: string;
}

/** Prepares the snapshots and a scratch root for runs over the fixture at `layout`. */
export function createBench(layout: FixtureLayout): Bench {
  const snapshots = new Map<string, Map<string, string>>();
  for (const { dir } of guardedDirs(layout)) snapshots.set(dir, snapshotTree(dir));
  // Scratch copies live in memory when the host has /dev/shm: copying to disk dominated each run.
  const scratchBase = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  return { layout, snapshots, scratchRoot: fs.mkdtempSync(path.join(scratchBase, 'twfz-run-')) };
}

let counter = 0;

/** Runs `command` in a sandbox over a fresh copy of the fixture and checks every path it touched. */
export async function judge(bench: Bench, command: string, limits: RunLimits): Promise<Judgement> {
  const { layout } = bench;
  const dir = path.join(bench.scratchRoot, String(counter++));
  const scratch = path.join(dir, 'fx');
  const traceDir = path.join(dir, 'trace');
  await fs.promises.mkdir(traceDir, { recursive: true });
  await copyFixture(layout.base, scratch);
  try {
    const run = await runSandboxed(command, layout, scratch, traceDir, limits);
    const touches = parseTrace(run.trace, layout.ws);
    const violations = findViolations(touches, layout, hostView(layout, scratch));
    const canaryChanges: string[] = [];
    for (const { dir: guarded } of guardedDirs(layout)) {
      const copy = path.join(scratch, path.relative(layout.base, guarded));
      for (const change of diffTrees(bench.snapshots.get(guarded) ?? new Map(), snapshotTree(copy))) canaryChanges.push(`${path.relative(layout.base, guarded)}: ${change}`);
    }
    const canaryRead = run.stdout.includes(CANARY) || run.stderr.includes(CANARY);
    const result: Judgement = { violations, canaryChanges, canaryRead, exitCode: run.exitCode, timedOut: run.timedOut, touches: touches.length };
    if (touches.length === 0) result.error = `the sandbox did not start or traced nothing: ${run.stderr.slice(0, 200)}`;
    return result;
  } finally {
    // Not awaited: the next command's run overlaps the removal; the scratch root goes at the end of the run.
    void fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
