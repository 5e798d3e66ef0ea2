import { execa } from 'execa';
import { createRuntime } from '../../runtime/index.js';
import { assertOk, latencyFigure, sampleInTurns, type Operation } from '../measure.js';
import { compareRow, differenceRow, infoRow } from '../targets.js';
import type { Row } from '../types.js';
import { makeWorkspace } from '../workspace.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 5: bash exec "true" through the broker, against execa called directly, and with the OS sandbox. */
export const processBroker: Scenario = {
  id: 5,
  title: 'Process broker: bash exec "true" vs execa directly; OS sandbox vs none',
  run: runProcessBroker,
};

// The invocation the broker spawns for bash (runtime/processes/shell.ts), run by execa the same way.
const SHELL_ARGS = ['--noprofile', '--norc', '-c', 'true'];

async function runProcessBroker(context: ScenarioContext): Promise<ScenarioOutcome> {
  const ws = makeWorkspace(context.scratch);
  const runtime = await createRuntime({ idleWorkers: 2 });
  // The same sandbox with a bwrap per command (issue 13 item 7's "before"), measured in the same run.
  const perCommandRuntime = await createRuntime({ idleWorkers: 1, sandboxZygote: false });
  try {
    const plain = await runtime.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off' });
    const boxed = await runtime.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required' });
    const perCommand = await perCommandRuntime.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required' });
    const probe = await boxed.call('bash', { command: 'true' });
    const sandboxReason = probe.isError ? JSON.stringify(probe.content).slice(0, 300) : undefined;
    const operations: Record<string, Operation> = {
      broker: async () => assertOk(await plain.call('bash', { command: 'true' })),
      execa: () => execa('bash', SHELL_ARGS, { cwd: ws.root, env: { PATH: process.env['PATH'] ?? '' }, extendEnv: false, reject: false }),
    };
    if (!sandboxReason) {
      operations['sandboxed'] = async () => assertOk(await boxed.call('bash', { command: 'true' }));
      operations['perCommand'] = async () => assertOk(await perCommand.call('bash', { command: 'true' }));
    }
    const plan = context.sizes.execs;
    const samples = await sampleInTurns(operations, plan, { onRound: (round) => context.progress(`exec round ${round + 1}/${plan.rounds}`) });
    const broker = latencyFigure('session bash exec "true", sandbox off', samples['broker'] ?? []);
    const rows: Row[] = [compareRow('bash exec "true" vs execa directly', broker, latencyFigure(`execa('bash', [${SHELL_ARGS.map((a) => `'${a}'`).join(', ')}])`, samples['execa'] ?? []), { kind: 'max', limit: 1.2 })];
    if (samples['sandboxed']) {
      const sandboxed = latencyFigure("session bash exec \"true\", sandbox 'required'", samples['sandboxed']);
      rows.push(differenceRow('OS sandbox (bwrap) vs none', sandboxed, broker, 5));
      // Issue 13 item 7: a sandboxed exec at most 1.5x an unsandboxed one; scenario 7 shows where the time goes.
      rows.push(compareRow('OS sandbox: sandboxed exec vs unsandboxed', sandboxed, broker, { kind: 'max', limit: 1.5 }));
      const perCommandFigure = latencyFigure("session bash exec \"true\", sandbox 'required', sandboxZygote: false", samples['perCommand'] ?? []);
      rows.push(infoRow('OS sandbox, a bwrap per command (sandboxZygote: false) vs unsandboxed', perCommandFigure, broker));
    }
    const notes = [
      `${plan.warmup} warmup + ${plan.rounds} rounds of ${plan.perRound} execs per variant, one at a time, taking turns`,
      "cpu/call counts a command's CPU once it is reaped (10 ms ticks), so not that of commands a standing sandbox (zygote) reaps",
    ];
    // By default the session runs its commands in a standing sandbox (zygote) where the self-test proves it sealed.
    if (!sandboxReason) notes.push(`the sandboxed session ${runtime.stats().zygotes > 0 ? 'used a zygote' : 'used a bwrap per command (no sealed zygote here; see doctor)'}`);
    if (sandboxReason) notes.push(`sandbox 'required' is unavailable here, so the sandbox row is missing: ${sandboxReason}`);
    return { rows, notes };
  } finally {
    await Promise.all([runtime.close(), perCommandRuntime.close()]);
  }
}
