import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { timeBareWorkerStart } from '../baselines.js';
import { figureOf, sleep, timeOnce } from '../measure.js';
import { summarize } from '../stats.js';
import { compareRow, infoRow } from '../targets.js';
import { makeWorkspace } from '../workspace.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

const POOL_SIZE = 2;

/** Scenario 1: session open with the idle-worker pool warm and cold, against a bare Worker start. */
export const sessionOpen: Scenario = {
  id: 1,
  title: 'Session open: warm pool, cold, vs a bare new Worker() posting "ready"',
  run: runSessionOpen,
};

async function runSessionOpen(context: ScenarioContext): Promise<ScenarioOutcome> {
  const ws = makeWorkspace(context.scratch);
  const options = { workspaceRoot: ws.root, tools: ['read_file'] };
  const bare: number[] = [];
  const cold: number[] = [];
  const isolated: number[] = [];
  const coldRuntime = await createRuntime({ idleWorkers: 0, sandbox: 'off', allowSharedPidNamespace: true });
  try {
    await timeBareWorkerStart();
    await openAndClose(coldRuntime, options);
    // Bare and cold take turns, so machine drift hits both alike.
    for (let round = 0; round < context.sizes.opens; round += 1) {
      context.progress(`bare worker / cold open, round ${round + 1}/${context.sizes.opens}`);
      bare.push(await timeBareWorkerStart());
      cold.push(await openAndClose(coldRuntime, options));
      isolated.push(await openAndClose(coldRuntime, { ...options, isolation: 'process' }));
    }
  } finally {
    await coldRuntime.close();
  }
  const bareFigure = figureOf('bare new Worker() until "ready"', 'ms', bare);
  // The pool refills in the background after each take; waiting a few boot times lets it finish first,
  // so every warm open finds an idle worker and no refill competes with the timed open.
  const settleMs = Math.ceil(3 * Math.max(bareFigure.summary.p50, summarize(cold).p50) + 50);
  const warm: number[] = [];
  const warmRuntime = await createRuntime({ idleWorkers: POOL_SIZE, sandbox: 'off' });
  try {
    for (let round = 0; round < context.sizes.opens; round += 1) {
      context.progress(`warm open, round ${round + 1}/${context.sizes.opens}`);
      await sleep(settleMs);
      warm.push(await openAndClose(warmRuntime, options));
    }
  } finally {
    await warmRuntime.close();
  }
  return {
    rows: [
      compareRow('warm open (idle worker from the pool)', figureOf(`openSession, idleWorkers: ${POOL_SIZE}`, 'ms', warm), bareFigure, { kind: 'max', limit: 0.005 }),
      compareRow('cold open (no idle worker)', figureOf('openSession, idleWorkers: 0', 'ms', cold), bareFigure, { kind: 'max', limit: 1.3 }),
      infoRow("open with isolation 'process' (what it costs)", figureOf("openSession, isolation: 'process'", 'ms', isolated), bareFigure),
    ],
    notes: [
      `${context.sizes.opens} opens per variant; each warm open waits ${settleMs} ms first so the pool has refilled`,
      'an open is timed until openSession resolves; the session is closed untimed',
    ],
  };
}

async function openAndClose(runtime: Runtime, options: { workspaceRoot: string; tools: string[]; isolation?: 'worker' | 'process' }): Promise<number> {
  let session: Session | undefined;
  const elapsed = await timeOnce(async () => {
    session = await runtime.openSession(options);
  });
  await session?.close();
  return elapsed;
}
