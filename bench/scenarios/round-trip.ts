import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRuntime } from '../../runtime/index.js';
import { assertSameAnswer, startLeanPair } from '../lean/index.js';
import { assertOk, latencyFigure, rateFigure, sampleInTurns } from '../measure.js';
import { repoPath } from '../paths.js';
import { againstLean, compareRow, infoRow, leanOf, type RatioGoal } from '../targets.js';
import type { Row } from '../types.js';
import { makeWorkspace } from '../workspace.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 2: brokered read_file (4 KiB, 64 KiB) and a no-op host tool, next to the lean designs, in-process reads and a raw round trip. */
export const roundTrip: Scenario = {
  id: 2,
  title: 'Brokered call round trip: read_file 4 KiB and 64 KiB, a no-op tool vs fs.promises.readFile, the lean designs and a raw round trip',
  run: runRoundTrip,
};

// A lean SharedArrayBuffer lane holds the 64 KiB file and its formatted answer (about 1.2x the text).
const LANE_BYTES = 256 * 1024;

async function runRoundTrip(context: ScenarioContext): Promise<ScenarioOutcome> {
  const ws = makeWorkspace(context.scratch);
  const file4k = path.join(ws.root, ws.file4k);
  const file64k = path.join(ws.root, ws.file64k);
  const noopModule = pathToFileURL(repoPath('bench/fixtures/noop-tool.mjs')).href;
  // The permission model's cost alone (sandbox off), so the tool process shares the pid namespace: opted in.
  const runtime = await createRuntime({ idleWorkers: 1, sandbox: 'off', allowSharedPidNamespace: true, toolModules: [noopModule] });
  const lean = await startLeanPair(ws.root, 1, LANE_BYTES);
  try {
    const session = await runtime.openSession({ workspaceRoot: ws.root, tools: ['read_file', 'noop'] });
    const probe = await session.call('noop', {});
    if (probe.isError) throw new Error(`the noop host tool failed: ${JSON.stringify(probe)}`);
    // What isolation 'process' costs: the same no-op through a child process under Node's permission model.
    const isolated = await runtime.openSession({ workspaceRoot: ws.root, tools: ['noop'], isolation: 'process' });
    assertOk(await isolated.call('noop', {}));
    const readText = async (relative: string): Promise<string> => {
      const result = await session.call('read_file', { path: relative });
      assertOk(result);
      return (result.structuredContent as { text: string }).text;
    };
    await assertSameAnswer(lean, file4k, await readText(ws.file4k));
    await assertSameAnswer(lean, file64k, await readText(ws.file64k));
    const plan = context.sizes.roundTrip;
    const turns = await sampleInTurns(
      {
        read: () => readText(ws.file4k),
        fsPromises: () => fs.promises.readFile(file4k, 'utf8'),
        leanPort: () => lean.port.read(file4k, 0),
        leanSab: () => lean.sab.read(file4k, 0),
        read64: () => readText(ws.file64k),
        fsPromises64: () => fs.promises.readFile(file64k, 'utf8'),
        leanPort64: () => lean.port.read(file64k, 0),
        leanSab64: () => lean.sab.read(file64k, 0),
        noop: async () => assertOk(await session.call('noop', {})),
        roundTrip: () => lean.port.noop(0),
        leanSabNoop: () => lean.sab.noop(0),
        noopIsolated: async () => assertOk(await isolated.call('noop', {})),
        readSync: async () => fs.readFileSync(file4k, 'utf8'),
      },
      plan,
      { onRound: (round) => context.progress(`round ${round + 1}/${plan.rounds}`) },
    );
    const fsPromises = latencyFigure('in-process fs.promises.readFile', turns.fsPromises);
    const read = latencyFigure('session.call read_file (4 KiB)', turns.read);
    const roundTripFigure = latencyFigure('raw round trip: a no-op over the lean MessagePort', turns.roundTrip);
    const noop = latencyFigure('session.call noop host tool', turns.noop);
    const fsPromises64 = rateFigure('in-process fs.promises.readFile, one at a time', turns.fsPromises64);
    const readGoal: RatioGoal = { kind: 'max', limit: 0.6 };
    const read64Goal: RatioGoal = { kind: 'min', limit: 0.5 };
    const noopGoal: RatioGoal = { kind: 'max', limit: 1.2 };
    const read4kTarget = compareRow('read_file 4 KiB vs in-process fs.promises', read, fsPromises, readGoal);
    const read64kTarget = compareRow('read_file 64 KiB calls/s vs in-process fs.promises', rateFigure('session.call read_file (64 KiB), one at a time', turns.read64), fsPromises64, read64Goal);
    const noopTarget = againstLean(compareRow('no-op host tool vs a raw round trip', noop, roundTripFigure, noopGoal));
    const rows: Row[] = [
      read4kTarget,
      leanOf(read4kTarget, compareRow('lean MessagePort', latencyFigure('lean MessagePort read (4 KiB)', turns.leanPort), fsPromises, readGoal)),
      leanOf(read4kTarget, compareRow('lean SharedArrayBuffer', latencyFigure('lean SharedArrayBuffer read (4 KiB)', turns.leanSab), fsPromises, readGoal)),
      read64kTarget,
      leanOf(read64kTarget, compareRow('lean MessagePort', rateFigure('lean MessagePort read (64 KiB)', turns.leanPort64), fsPromises64, read64Goal)),
      leanOf(read64kTarget, compareRow('lean SharedArrayBuffer', rateFigure('lean SharedArrayBuffer read (64 KiB)', turns.leanSab64), fsPromises64, read64Goal)),
      noopTarget,
      leanOf(noopTarget, compareRow('lean SharedArrayBuffer no-op', latencyFigure('a no-op over the lean SharedArrayBuffer', turns.leanSabNoop), roundTripFigure, noopGoal)),
      infoRow('read_file 4 KiB vs a raw round trip', read, roundTripFigure),
      infoRow("no-op tool, isolation 'process' vs worker", latencyFigure("session.call noop, isolation 'process'", turns.noopIsolated), noop),
      infoRow('in-process readFileSync vs fs.promises', latencyFigure('in-process fs.readFileSync', turns.readSync), fsPromises),
    ];
    return {
      rows,
      notes: [
        `${plan.warmup} warmup + ${plan.rounds} rounds of ${plan.perRound} calls per operation, one call at a time; the operations take turns within each round`,
        'lean designs: the main thread does realpath and a synchronous read, one worker formats with read_file\'s formatter (bench/lean/); they answer with the same text as read_file (checked)',
        'the raw round trip is the lean MessagePort design carrying a no-op, so that design is 1.00x there by construction',
        "cpu/call of isolation 'process' leaves out the tool process's own CPU",
      ],
    };
  } finally {
    await lean.close();
    await runtime.close();
  }
}
