import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { LoopDelayRecorder, RssPeak, runSessionLoad, type LoadCall, type LoadOutcome } from '../load.js';
import { figureOf, sleep } from '../measure.js';
import { single, summarize } from '../stats.js';
import { absoluteRow, infoRow } from '../targets.js';
import type { Figure, Row } from '../types.js';
import { makeWorkspace, textOfSize, type BenchWorkspace } from '../workspace.js';
import { compareReads, leanLoadRows } from './read-comparison.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 3: many sessions at once; read-only throughput next to the lean designs, then mixed calls: latency, memory, event-loop delay. */
export const concurrency: Scenario = {
  id: 3,
  title: 'Concurrency: sessions reading (vs fs.promises and the lean designs), then doing mixed calls (read_file, grep, write_file, bash exec "true")',
  run: runConcurrency,
};

const OPEN_BATCH = 8;
const SETTLE_MS = 1000;
const MB = 1024 * 1024;
const TOOLS = ['read_file', 'grep', 'write_file', 'bash'];
// Few sessions make few calls: the read-only load gives each session more so a turn has enough calls to time.
// A turn of a few tens of ms is at the mercy of one descheduling on a busy machine.
const MIN_READS_PER_TURN = 1000;
// The targets: throughput and CPU at 64 sessions; the mixed load's p99s at the largest count.
const RATE_AND_CPU_AT = 64;
const READ_P99_MS = 25;
const LOOP_P99_MS = 10;

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
    `read-only: ${sizes.loadRounds} rounds; in each, toolwarden, in-process fs.promises.readFile, the lean MessagePort and the lean SharedArrayBuffer designs take turns, each making ${sizes.readsPerSession} reads of 4 KiB per session (more for few sessions: at least ${MIN_READS_PER_TURN} a turn)`,
    `mixed: ${sizes.mixedRounds} round(s) of ${sizes.mixedPerSession} calls per session (read_file, grep over 21 small files, write_file 1 KiB, bash exec "true", sandbox off), toolwarden alone (its targets are absolute)`,
    'before timing, every session calls each tool once and makes one untimed read-only turn (each worker JITs its own code); idle RSS is measured before that, after opening and 1 s of rest; the lean designs start after the mixed load, so no RSS figure counts their workers',
    'RSS per session = (process RSS after opening, or peak under load) minus RSS before opening, divided by the session count',
    'event-loop delay: how late a 1 ms interval timer fires, recorded only during the load it is filed under (bench/load.ts)',
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
  const readsPerSession = Math.max(sizes.readsPerSession, Math.ceil(MIN_READS_PER_TURN / count));
  // Each worker JIT-compiles its own copy of the tool code: untimed calls first, so rounds measure the steady state.
  const warmup = await runSessionLoad(sessions, (index) => [
    ...mixedCalls(ws, index, TOOLS.length),
    ...Array.from({ length: readsPerSession }, (): LoadCall => ({ kind: 'read_file', tool: 'read_file', args: { path: ws.file4k } })),
  ]);
  const mixedRates: number[] = [];
  const mixed: LoadOutcome[] = [];
  let failures = warmup.failures;
  let busyPeak = rssBefore;
  const loopDelay = new LoopDelayRecorder();
  try {
    for (let round = 0; round < sizes.mixedRounds; round += 1) {
      context.progress(`${count} sessions: mixed round ${round + 1}/${sizes.mixedRounds}`);
      const rss = new RssPeak();
      const load = await loopDelay.during(() => runSessionLoad(sessions, (index) => mixedCalls(ws, index, sizes.mixedPerSession)));
      busyPeak = Math.max(busyPeak, rss.stop());
      mixedRates.push(load.calls / (load.wallMs / 1000));
      mixed.push(load);
      failures += load.failures;
    }
    const goals = count === RATE_AND_CPU_AT ? { rate: { kind: 'min', limit: 1 }, cpu: { kind: 'max', limit: 1.3 } } as const : {};
    const reads = await compareReads(sessions, ws, readsPerSession, goals, context);
    failures += reads.failures;
    const mixedAll = mixed.flatMap((load) => [...load.latencies.values()].flat());
    const at = `${count} session${count === 1 ? '' : 's'}`;
    const readTarget = targetIf(isLargest, `${at}: read_file latency under mixed load`, figureOf('read_file during the mixed load', 'ms', mixed.flatMap((load) => load.latencies.get('read_file') ?? [])), READ_P99_MS);
    const loopTarget = targetIf(isLargest, `${at}: main-thread event-loop delay, mixed load`, { label: 'event-loop delay during the mixed load', unit: 'ms', summary: loopDelay.summary() }, LOOP_P99_MS);
    const rows: Row[] = [
      ...reads.rows,
      infoRow(`${at}: mixed calls/s`, figureOf('mixed calls, aggregate', 'calls/s', mixedRates)),
      infoRow(`${at}: mixed call latency`, figureOf('every mixed call', 'ms', mixedAll)),
      readTarget,
      ...(isLargest ? leanLoadRows(readTarget, 'latency', reads, READ_P99_MS) : []),
      isLargest ? absoluteRow(`${at}: failed calls`, countFigure('calls that resolved isError', failures), 'max', 'max', 0) : infoRow(`${at}: failed calls`, countFigure('calls that resolved isError', failures)),
      isLargest ? absoluteRow(`${at}: idle RSS per session`, mbFigure('RSS delta / sessions, idle', idleRssPerSession), 'p50', 'max', 10) : infoRow(`${at}: idle RSS per session`, mbFigure('RSS delta / sessions, idle', idleRssPerSession)),
      infoRow(`${at}: busy RSS per session`, mbFigure('peak RSS delta / sessions, mixed load', (busyPeak - rssBefore) / count / MB)),
      loopTarget,
      ...(isLargest ? leanLoadRows(loopTarget, 'loopDelay', reads, LOOP_P99_MS) : []),
    ];
    const failureNote = [warmup, ...mixed].flatMap((load) => load.failureSamples).slice(0, 2);
    return {
      rows,
      notes: [
        `${at}: opened in ${openSeconds.toFixed(1)} s; ${readsPerSession} read_file calls per session per turn; mixed latency p50/p99 ms by tool: ${describeKinds(mixed)}`,
        ...failureNote.map((text) => `${at}: a failed call: ${text}`),
      ],
    };
  } finally {
    context.progress(`${count} sessions: closing`);
    await Promise.all(sessions.map((session) => session.close()));
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

function targetIf(checked: boolean, name: string, figure: Figure, limit: number): Row {
  return checked ? absoluteRow(name, figure, 'p99', 'max', limit) : infoRow(name, figure);
}

function countFigure(label: string, value: number): Figure {
  return { label, unit: 'count', summary: single(value) };
}

function mbFigure(label: string, value: number): Figure {
  return { label, unit: 'MB', summary: single(value) };
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
