import fs from 'node:fs';
import path from 'node:path';
import type { Session } from '../../runtime/index.js';
import { assertSameAnswer, startLeanPair } from '../lean/index.js';
import { LoopDelayRecorder, runInProcessLoad, runSessionLoad } from '../load.js';
import { cpuFigure, latencyFigure, rateFigure, runRounds, type TurnRunner } from '../measure.js';
import { absoluteRow, againstLean, compareRow, infoRow, leanOf, type RatioGoal } from '../targets.js';
import type { Figure, Row } from '../types.js';
import type { BenchWorkspace } from '../workspace.js';
import type { ScenarioContext } from './scenario.js';

const CANDIDATES = ['toolwarden', 'fsPromises', 'leanPort', 'leanSab'] as const;
type Candidate = (typeof CANDIDATES)[number];

// A lean SharedArrayBuffer lane holds the 4 KiB file and its formatted answer.
const LANE_BYTES = 16 * 1024;
// Untimed reads per lean worker first, so its formatter is compiled as a session worker's is by its warm-up.
const LEAN_WARMUP_READS = 5;

/** What the read-only comparison at one session count measured. */
export interface ReadComparison {
  rows: Row[];
  failures: number;
  /** Each candidate's read latency (pooled) and main-thread event-loop delay over its turns. */
  latency: Record<Candidate, Figure>;
  loopDelay: Record<Candidate, Figure>;
}

/** The targets at one session count: calls/s and CPU per read_file at 64 sessions, per the issue. */
export interface ReadGoals {
  rate?: RatioGoal;
  cpu?: RatioGoal;
}

/**
 * The read-only load at one session count, four candidates taking turns round after round: toolwarden's sessions,
 * in-process fs.promises.readFile at the same concurrency, and the two lean designs with one worker per session
 * (started here, after toolwarden's RSS was measured, and closed before returning). Every session reads the 4 KiB
 * file `reads` times per turn.
 */
export async function compareReads(sessions: readonly Session[], ws: BenchWorkspace, reads: number, goals: ReadGoals, context: ScenarioContext): Promise<ReadComparison> {
  const count = sessions.length;
  const absolute = path.join(ws.root, ws.file4k);
  context.progress(`${count} sessions: starting the lean designs (${count} workers each)`);
  const lean = await startLeanPair(ws.root, count, LANE_BYTES);
  let failures = 0;
  const monitors = Object.fromEntries(CANDIDATES.map((key) => [key, new LoopDelayRecorder()])) as Record<Candidate, LoopDelayRecorder>;
  try {
    const expected = await sessions[0]?.call('read_file', { path: ws.file4k });
    await assertSameAnswer(lean, absolute, (expected?.structuredContent as { text: string }).text);
    await runInProcessLoad(count, LEAN_WARMUP_READS, (lane) => lean.port.read(absolute, lane));
    await runInProcessLoad(count, LEAN_WARMUP_READS, (lane) => lean.sab.read(absolute, lane));
    const load = {
      toolwarden: async () => {
        const outcome = await runSessionLoad(sessions, () => Array.from({ length: reads }, () => ({ kind: 'read_file', tool: 'read_file', args: { path: ws.file4k } })));
        failures += outcome.failures;
        return { calls: outcome.calls, latencies: outcome.latencies.get('read_file') ?? [] };
      },
      fsPromises: () => inProcess(count, reads, () => fs.promises.readFile(absolute, 'utf8')),
      leanPort: () => inProcess(count, reads, (lane) => lean.port.read(absolute, lane)),
      leanSab: () => inProcess(count, reads, (lane) => lean.sab.read(absolute, lane)),
    } satisfies Record<Candidate, TurnRunner>;
    const monitored = Object.fromEntries(CANDIDATES.map((key) => [key, () => monitors[key].during(load[key])])) as Record<Candidate, TurnRunner>;
    const rounds = context.sizes.loadRounds;
    const turns = await runRounds(monitored, rounds, { onRound: (round) => context.progress(`${count} sessions: read-only round ${round + 1}/${rounds}`) });
    const at = `${count} session${count === 1 ? '' : 's'}`;
    const rate = {
      toolwarden: rateFigure('brokered read_file, aggregate', turns.toolwarden),
      fsPromises: rateFigure('in-process fs.promises.readFile, same concurrency', turns.fsPromises),
      leanPort: rateFigure('lean MessagePort, one worker per session', turns.leanPort),
      leanSab: rateFigure('lean SharedArrayBuffer, one worker per session', turns.leanSab),
    };
    const cpu = {
      toolwarden: cpuFigure('brokered read_file, CPU per call', turns.toolwarden),
      leanPort: cpuFigure('lean MessagePort, CPU per call', turns.leanPort),
      leanSab: cpuFigure('lean SharedArrayBuffer, CPU per call', turns.leanSab),
    };
    const latency = {
      toolwarden: latencyFigure('brokered read_file, read-only load', turns.toolwarden),
      fsPromises: latencyFigure('in-process fs.promises.readFile', turns.fsPromises),
      leanPort: latencyFigure('lean MessagePort read, read-only load', turns.leanPort),
      leanSab: latencyFigure('lean SharedArrayBuffer read, read-only load', turns.leanSab),
    };
    const loopDelay = Object.fromEntries(CANDIDATES.map((key) => [key, { label: `event-loop delay during the ${key} turns`, unit: 'ms', summary: monitors[key].summary() }])) as Record<Candidate, Figure>;
    const rateTarget = compareRow(`${at}: read_file calls/s`, rate.toolwarden, rate.fsPromises, goals.rate);
    const cpuTarget = goals.cpu ? againstLean(compareRow(`${at}: CPU per read_file call`, cpu.toolwarden, cpu.leanSab, goals.cpu)) : infoRow(`${at}: CPU per read_file call`, cpu.toolwarden, cpu.leanSab);
    return {
      rows: [
        rateTarget,
        leanOf(rateTarget, compareRow('lean MessagePort calls/s', rate.leanPort, rate.fsPromises, goals.rate)),
        leanOf(rateTarget, compareRow('lean SharedArrayBuffer calls/s', rate.leanSab, rate.fsPromises, goals.rate)),
        cpuTarget,
        leanOf(cpuTarget, compareRow('lean MessagePort CPU per call', cpu.leanPort, cpu.leanSab, goals.cpu)),
        infoRow(`${at}: read_file latency, read-only load`, latency.toolwarden, latency.fsPromises),
      ],
      failures,
      latency,
      loopDelay,
    };
  } finally {
    await lean.close();
  }
}

/**
 * The lean designs' rows next to a mixed-load target at the largest count (read_file p99 or event-loop p99): their
 * read-only load is the least the design's hop costs there, so missing the target in it puts the target beyond the
 * design; meeting it leaves the mixed load's extra work (grep, writes, commands) to the code.
 */
export function leanLoadRows(target: Row, what: 'latency' | 'loopDelay', comparison: ReadComparison, limit: number): Row[] {
  const name = what === 'latency' ? 'read_file p99, read-only load' : 'event-loop delay p99, read-only load';
  return ([['leanPort', 'lean MessagePort'], ['leanSab', 'lean SharedArrayBuffer']] as const).map(([key, label]) =>
    leanOf(target, absoluteRow(`${label} ${name}`, comparison[what][key], 'p99', 'max', limit)));
}

async function inProcess(concurrency: number, perLoop: number, operation: (loop: number) => Promise<unknown>): Promise<{ calls: number; latencies: number[] }> {
  const { latencies } = await runInProcessLoad(concurrency, perLoop, operation);
  return { calls: latencies.length, latencies };
}
