import fs from 'node:fs';
import path from 'node:path';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { startDesignCeiling } from '../baselines.js';
import { createLoopDelayMonitor, RssPeak, runInProcessLoad, runSessionLoad, summarizeLoopDelay, type LoadCall, type LoadOutcome } from '../load.js';
import { figureOf, sleep } from '../measure.js';
import { single, summarize } from '../stats.js';
import { absoluteRow, ceilingNote, compareRow, infoRow, type RatioGoal } from '../targets.js';
import type { Row } from '../types.js';
import { makeWorkspace, textOfSize, type BenchWorkspace } from '../workspace.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 3: many sessions at once doing mixed calls; throughput, latency, memory and event-loop delay. */
export const concurrency: Scenario = {
  id: 3,
  title: 'Concurrency: sessions each doing mixed calls (read_file, grep, write_file, bash exec "true")',
  run: runConcurrency,
};

const OPEN_BATCH = 8;
const SETTLE_MS = 1000;
const MB = 1024 * 1024;
const TOOLS = ['read_file', 'grep', 'write_file', 'bash'];
// Few sessions make few calls: the read-only load gives each session more so a round has enough calls to time.
const MIN_READS_PER_ROUND = 400;
// Untimed reads per ceiling worker first, so its formatter is compiled as a session worker's is by its warm-up.
const CEILING_WARMUP_READS = 5;

async function runConcurrency(context: ScenarioContext): Promise<ScenarioOutcome> {
  const ws = makeWorkspace(context.scratch);
  const runtime = await createRuntime({ idleWorkers: 2, sandbox: 'off' });
  const rows: Row[] = [];
  const notes: string[] = [];
  const largest = Math.max(...context.sizes.sessionCounts);
  try {
    await sleep(SETTLE_MS);
    for (const count of context.sizes.sessionCounts) {
      const measured = await measureAt(runtime, ws, count, count === largest, context);
      rows.push(...measured.rows);
      notes.push(...measured.notes);
    }
  } finally {
    await runtime.close();
  }
  const { sizes } = context;
  notes.unshift(
    `each round: ${sizes.readsPerSession} read_file calls per session (more for few sessions, at least ${MIN_READS_PER_ROUND} a round; read-only load), then ${sizes.mixedPerSession} mixed calls per session (read_file, grep over 21 small files, write_file 1 KiB, bash exec "true", sandbox off); ${sizes.loadRounds} round(s) per session count`,
    'before timing, every session calls each tool once and makes one untimed read-only round (each worker JITs its own code); idle RSS is measured before that, after opening and 1 s of rest',
    'RSS per session = (process RSS after opening, or peak under load) minus RSS before opening, divided by the session count',
    'event-loop delay: monitorEventLoopDelay at 1 ms resolution during the mixed load, minus the resolution',
  );
  if (largest !== 256) notes.unshift(`quick mode: at most ${largest} sessions; the 256-session targets are checked at ${largest}`);
  return { rows, notes };
}

interface Measured {
  rows: Row[];
  notes: string[];
}

async function measureAt(runtime: Runtime, ws: BenchWorkspace, count: number, isLargest: boolean, context: ScenarioContext): Promise<Measured> {
  const { sizes } = context;
  const rssBefore = process.memoryUsage.rss();
  context.progress(`${count} sessions: opening`);
  const openStarted = performance.now();
  const sessions = await openSessions(runtime, ws.root, count);
  const openSeconds = (performance.now() - openStarted) / 1000;
  await sleep(SETTLE_MS);
  const idleRssPerSession = (process.memoryUsage.rss() - rssBefore) / count / MB;
  context.progress(`${count} sessions: untimed warm-up calls`);
  const readsPerSession = Math.max(sizes.readsPerSession, Math.ceil(MIN_READS_PER_ROUND / count));
  // Each worker JIT-compiles its own copy of the tool code: untimed calls first, so rounds measure the steady state.
  const warmup = await runSessionLoad(sessions, (index) => [
    ...mixedCalls(ws, index, TOOLS.length),
    ...repeat({ kind: 'read_file', tool: 'read_file', args: { path: ws.file4k } }, readsPerSession),
  ]);
  const absolute = path.join(ws.root, ws.file4k);
  const readRates: number[] = [];
  const baselineRates: number[] = [];
  const readLatencies: number[] = [];
  const baselineLatencies: number[] = [];
  const ceilingRates: number[] = [];
  const mixedRates: number[] = [];
  const mixed: LoadOutcome[] = [];
  let failures = warmup.failures;
  let busyPeak = rssBefore;
  const loopDelay = createLoopDelayMonitor();
  try {
    for (let round = 0; round < sizes.loadRounds; round += 1) {
      context.progress(`${count} sessions: round ${round + 1}/${sizes.loadRounds}, read_file load`);
      const reads = await runSessionLoad(sessions, () => repeat({ kind: 'read_file', tool: 'read_file', args: { path: ws.file4k } }, readsPerSession));
      readRates.push(reads.calls / (reads.wallMs / 1000));
      readLatencies.push(...(reads.latencies.get('read_file') ?? []));
      failures += reads.failures;
      context.progress(`${count} sessions: round ${round + 1}/${sizes.loadRounds}, in-process fs.promises baseline`);
      const inProcess = await runInProcessLoad(count, readsPerSession, () => fs.promises.readFile(absolute, 'utf8'));
      baselineRates.push((count * readsPerSession) / (inProcess.wallMs / 1000));
      baselineLatencies.push(...inProcess.latencies);
      context.progress(`${count} sessions: round ${round + 1}/${sizes.loadRounds}, design ceiling`);
      ceilingRates.push(await measureCeiling(count, readsPerSession, absolute));
      context.progress(`${count} sessions: round ${round + 1}/${sizes.loadRounds}, mixed load`);
      const rss = new RssPeak();
      loopDelay.enable();
      const load = await runSessionLoad(sessions, (index) => mixedCalls(ws, index, sizes.mixedPerSession));
      loopDelay.disable();
      busyPeak = Math.max(busyPeak, rss.stop());
      mixedRates.push(load.calls / (load.wallMs / 1000));
      mixed.push(load);
      failures += load.failures;
    }
  } finally {
    context.progress(`${count} sessions: closing`);
    await Promise.all(sessions.map((session) => session.close()));
  }
  const mixedAll = mixed.flatMap((load) => [...load.latencies.values()].flat());
  const mixedReads = mixed.flatMap((load) => load.latencies.get('read_file') ?? []);
  const at = `${count} session${count === 1 ? '' : 's'}`;
  const baselineRate = figureOf('in-process fs.promises.readFile, same concurrency', 'calls/s', baselineRates);
  const ceilingRate = figureOf('design ceiling: sync reads, one formatting worker per session', 'calls/s', ceilingRates);
  const rateGoal: RatioGoal | undefined = count === 64 ? { kind: 'min', limit: 1 } : undefined;
  const rows: Row[] = [
    compareRow(`${at}: read_file calls/s`, figureOf('brokered read_file, aggregate', 'calls/s', readRates), baselineRate, rateGoal),
    infoRow(`${at}: design ceiling calls/s`, ceilingRate, baselineRate),
    infoRow(`${at}: read_file latency, read-only load`, figureOf('brokered read_file', 'ms', readLatencies), figureOf('in-process fs.promises.readFile', 'ms', baselineLatencies)),
    infoRow(`${at}: mixed calls/s`, figureOf('mixed calls, aggregate', 'calls/s', mixedRates)),
    infoRow(`${at}: mixed call latency`, figureOf('every mixed call', 'ms', mixedAll)),
    targetIf(isLargest, `${at}: read_file latency under mixed load`, figureOf('read_file during the mixed load', 'ms', mixedReads), 'p99', 'max', 25),
    targetIf(isLargest, `${at}: failed calls`, { label: 'calls that resolved isError', unit: 'count', summary: single(failures) }, 'max', 'max', 0),
    targetIf(isLargest, `${at}: idle RSS per session`, { label: 'RSS delta / sessions, idle', unit: 'MB', summary: single(idleRssPerSession) }, 'p50', 'max', 10),
    infoRow(`${at}: busy RSS per session`, { label: 'peak RSS delta / sessions, mixed load', unit: 'MB', summary: single((busyPeak - rssBefore) / count / MB) }),
    targetIf(isLargest, `${at}: main-thread event-loop delay, mixed load`, { label: 'monitorEventLoopDelay', unit: 'ms', summary: summarizeLoopDelay(loopDelay) }, 'p99', 'max', 10),
  ];
  const failureNote = [warmup, ...mixed].flatMap((load) => load.failureSamples).slice(0, 2);
  return {
    rows,
    notes: [
      ...(rateGoal ? [ceilingNote(`${at}: read_file calls/s`, ceilingRate, baselineRate, rateGoal)] : []),
      `${at}: opened in ${openSeconds.toFixed(1)} s; ${readsPerSession} read_file calls per session per round; mixed latency p50/p99 ms by tool: ${describeKinds(mixed)}`,
      ...failureNote.map((text) => `${at}: a failed call: ${text}`),
    ],
  };
}

/**
 * The design's own limit at this concurrency, in calls/s: one bare formatting worker per session, the main thread
 * reading (see startDesignCeiling). Its workers live only while it runs, so no RSS figure counts them.
 */
async function measureCeiling(count: number, readsPerLoop: number, file: string): Promise<number> {
  const ceiling = await startDesignCeiling(count);
  try {
    await runInProcessLoad(count, CEILING_WARMUP_READS, (loop) => ceiling.read(file, loop));
    const timed = await runInProcessLoad(count, readsPerLoop, (loop) => ceiling.read(file, loop));
    return (count * readsPerLoop) / (timed.wallMs / 1000);
  } finally {
    await ceiling.close();
  }
}

async function openSessions(runtime: Runtime, root: string, count: number): Promise<Session[]> {
  const sessions: Session[] = [];
  for (let start = 0; start < count; start += OPEN_BATCH) {
    const batch = Array.from({ length: Math.min(OPEN_BATCH, count - start) }, () => runtime.openSession({ workspaceRoot: root, tools: TOOLS, sandbox: 'off' }));
    sessions.push(...(await Promise.all(batch)));
  }
  return sessions;
}

function mixedCalls(ws: BenchWorkspace, index: number, count: number): LoadCall[] {
  const content = textOfSize(1024, index + 100);
  const cycle: LoadCall[] = [
    { kind: 'read_file', tool: 'read_file', args: { path: ws.file4k } },
    { kind: 'grep', tool: 'grep', args: { pattern: 'needle', path: ws.grepDir } },
    { kind: 'write_file', tool: 'write_file', args: { path: `${ws.outDir}/s${index}.txt`, content } },
    { kind: 'bash', tool: 'bash', args: { command: 'true' } },
  ];
  return Array.from({ length: count }, (_, i) => cycle[i % cycle.length] as LoadCall);
}

function repeat(call: LoadCall, count: number): LoadCall[] {
  return Array.from({ length: count }, () => call);
}

function targetIf(checked: boolean, name: string, figure: Row['figure'], stat: 'p50' | 'p99' | 'max', kind: 'max' | 'min', limit: number): Row {
  return checked ? absoluteRow(name, figure, stat, kind, limit) : infoRow(name, figure);
}

function describeKinds(loads: readonly LoadOutcome[]): string {
  const kinds = new Map<string, number[]>();
  for (const load of loads) {
    for (const [kind, values] of load.latencies) kinds.set(kind, [...(kinds.get(kind) ?? []), ...values]);
  }
  return [...kinds].map(([kind, values]) => {
    const summary = summarize(values);
    return `${kind} ${summary.p50.toFixed(1)}/${summary.p99.toFixed(1)}`;
  }).join(', ');
}
