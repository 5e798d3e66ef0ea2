import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { timeBareWorkerStart } from '../baselines.js';
import { figureOf, latencyFigure, runRounds, sleep, timeOnce, type Turn } from '../measure.js';
import { headline } from '../stats.js';
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
  const coldRuntime = await createRuntime({ idleWorkers: 0, sandbox: 'off', allowSharedPidNamespace: true });
  let turns: Record<'bare' | 'cold' | 'isolated', Turn[]>;
  try {
    await timeBareWorkerStart();
    await openAndClose(coldRuntime, options);
    // One open of each variant per round, taking turns, so machine drift hits them alike.
    const once = async (open: () => Promise<number>) => ({ calls: 1, latencies: [await open()] });
    turns = await runRounds(
      {
        bare: () => once(timeBareWorkerStart),
        cold: () => once(() => openAndClose(coldRuntime, options)),
        isolated: () => once(() => openAndClose(coldRuntime, { ...options, isolation: 'process' })),
      },
      context.sizes.opens,
      { onRound: (round) => context.progress(`bare worker / cold open, round ${round + 1}/${context.sizes.opens}`) },
    );
  } finally {
    await coldRuntime.close();
  }
  const bareFigure = latencyFigure('bare new Worker() until "ready"', turns.bare);
  const coldFigure = latencyFigure('openSession, idleWorkers: 0', turns.cold);
  // The pool refills in the background after each take; waiting a few boot times lets it finish first,
  // so every warm open finds an idle worker and no refill competes with the timed open.
  const settleMs = Math.ceil(3 * Math.max(headline(bareFigure), headline(coldFigure)) + 50);
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
      compareRow('cold open (no idle worker)', coldFigure, bareFigure, { kind: 'max', limit: 1.3 }),
      infoRow("open with isolation 'process' (what it costs)", latencyFigure("openSession, isolation: 'process'", turns.isolated), bareFigure),
    ],
    notes: [
      `${context.sizes.opens} rounds of one bare start, one cold open and one isolated open, taking turns; then ${context.sizes.opens} warm opens, each after ${settleMs} ms so the pool has refilled`,
      "an open is timed until openSession resolves; the session is closed untimed, but its close counts in cpu/call (as the bare worker's terminate does); an isolated session's child counts once reaped (10 ms ticks)",
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
