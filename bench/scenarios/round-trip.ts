import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRuntime } from '../../runtime/index.js';
import { startDesignCeiling, startEchoWorker } from '../baselines.js';
import { assertOk, figureOf, sampleInTurns } from '../measure.js';
import { repoPath } from '../paths.js';
import { ceilingNote, compareRow, infoRow } from '../targets.js';
import { makeWorkspace } from '../workspace.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 2: brokered read_file of 4 KiB and a no-op host tool, against in-process reads and raw postMessage. */
export const roundTrip: Scenario = {
  id: 2,
  title: 'Brokered call round trip: read_file 4 KiB and a no-op tool vs fs.promises.readFile and raw postMessage',
  run: runRoundTrip,
};

async function runRoundTrip(context: ScenarioContext): Promise<ScenarioOutcome> {
  const ws = makeWorkspace(context.scratch);
  const absolute = path.join(ws.root, ws.file4k);
  const noopModule = pathToFileURL(repoPath('bench/fixtures/noop-tool.mjs')).href;
  // The permission model's cost alone (sandbox off), so the tool process shares the pid namespace: opted in.
  const runtime = await createRuntime({ idleWorkers: 1, sandbox: 'off', allowSharedPidNamespace: true, toolModules: [noopModule] });
  const echo = await startEchoWorker();
  const ceiling = await startDesignCeiling();
  try {
    const session = await runtime.openSession({ workspaceRoot: ws.root, tools: ['read_file', 'noop'] });
    const probe = await session.call('noop', {});
    if (probe.isError) throw new Error(`the noop host tool failed: ${JSON.stringify(probe)}`);
    // What isolation 'process' costs: the same no-op through a child process under Node's permission model.
    const isolated = await runtime.openSession({ workspaceRoot: ws.root, tools: ['noop'], isolation: 'process' });
    assertOk(await isolated.call('noop', {}));
    let sequence = 0;
    const plan = context.sizes.roundTrip;
    const samples = await sampleInTurns(
      {
        read: async () => assertOk(await session.call('read_file', { path: ws.file4k })),
        fsPromises: () => fs.promises.readFile(absolute, 'utf8'),
        readSync: async () => fs.readFileSync(absolute, 'utf8'),
        ceiling: () => ceiling.read(absolute),
        noop: async () => assertOk(await session.call('noop', {})),
        noopIsolated: async () => assertOk(await isolated.call('noop', {})),
        ping: () => echo.ping({ id: (sequence += 1), name: 'noop', args: {} }),
      },
      plan,
      (block) => context.progress(`block ${block + 1}/${plan.blocks}`),
    );
    const fsPromises = figureOf('in-process fs.promises.readFile', 'ms', samples.fsPromises);
    const ping = figureOf('raw postMessage ping-pong with a worker', 'ms', samples.ping);
    const read = figureOf('session.call read_file (4 KiB)', 'ms', samples.read);
    const noop = figureOf('session.call noop host tool', 'ms', samples.noop);
    const readGoal = { kind: 'max', limit: 0.6 } as const;
    const bare = figureOf('design ceiling: sync read, one round trip to a formatting worker', 'ms', samples.ceiling);
    return {
      rows: [
        compareRow('read_file 4 KiB vs in-process fs.promises', read, fsPromises, readGoal),
        infoRow('design ceiling vs in-process fs.promises', bare, fsPromises),
        infoRow('read_file 4 KiB vs raw postMessage', read, ping),
        compareRow('no-op tool vs raw postMessage', noop, ping, { kind: 'max', limit: 1.2 }),
        infoRow("no-op tool, isolation 'process' vs worker", figureOf("session.call noop, isolation 'process'", 'ms', samples.noopIsolated), noop),
        infoRow('in-process readFileSync vs fs.promises', figureOf('in-process fs.readFileSync', 'ms', samples.readSync), fsPromises),
      ],
      notes: [
        ceilingNote('read_file 4 KiB', bare, fsPromises, readGoal),
        `${plan.warmup} warmup + ${plan.blocks * plan.perBlock} timed calls per operation, one at a time, operations taking turns every ${plan.perBlock} calls`,
      ],
    };
  } finally {
    await echo.close();
    await ceiling.close();
    await runtime.close();
  }
}
