import { spawn } from 'node:child_process';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { buildBwrapArgs } from '../../src/sandbox/bwrap-args.js';
import type { SandboxScope } from '../../src/sandbox/types.js';
import { startBlockedGuard } from '../../runtime/sandbox/blocked-guard.js';
import { createBubblewrapSandbox, featuresOf } from '../../runtime/sandbox/create-sandbox.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { canonicalize, canonicalizeScope, hostSandboxSys } from '../../runtime/sandbox/host-sys.js';
import { figureOf, latencyFigure, sampleInTurns, type Operation } from '../measure.js';
import { infoRow } from '../targets.js';
import type { Row } from '../types.js';
import { makeWorkspace } from '../workspace.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 7: where a sandboxed command's start-up goes, bwrap phase by phase, each next to a bare bash. */
export const sandboxStartup: Scenario = {
  id: 7,
  title: 'OS sandbox start-up: bash -c true under bwrap, one layer at a time, vs bash alone',
  run: runSandboxStartup,
};

const BASH = ['bash', '--noprofile', '--norc', '-c', 'true'];
// Main-thread work per command, timed synchronously this many times.
const SYNC_RUNS = 200;

async function runSandboxStartup(context: ScenarioContext): Promise<ScenarioOutcome> {
  const detection = await detectSandbox();
  if (!detection.available || detection.path === undefined) return { rows: [], notes: [], skipped: detection.reason ?? 'bwrap is not available' };
  const bwrap = detection.path;
  const ws = makeWorkspace(context.scratch);
  const limits = { tmpBytes: DEFAULT_LIMITS.sandboxTmpBytes, maxProcesses: DEFAULT_LIMITS.commandMaxProcesses, memoryBytes: DEFAULT_LIMITS.commandMemoryBytes, cpuSeconds: DEFAULT_LIMITS.commandCpuSeconds };
  const guardOf = () => startBlockedGuard(canonicalize(ws.root), DEFAULT_BLOCKLIST, []);
  const guard = guardOf();
  const scope: SandboxScope = { workspaceRoot: ws.root, readRoots: [], blockedInWorkspace: guard.existing, stubsInWorkspace: guard.stubs, net: false, limits };
  guard.finish();
  const features = featuresOf(detection);
  const userNamespace = features.userNamespace === true;
  const layoutOnly = [bwrap, ...buildBwrapArgs(canonicalizeScope(scope), canonicalize(ws.root), BASH, hostSandboxSys, { userNamespace })];
  const withSeccomp = createBubblewrapSandbox(bwrap, { userNamespace, seccomp: true });
  const today = createBubblewrapSandbox(bwrap, features);
  const namespaces = [...(userNamespace ? ['--unshare-user'] : []), '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  const argvs: Record<string, string[]> = {
    bash: BASH,
    bwrapBare: [bwrap, '--ro-bind', '/', '/', '--', ...BASH],
    bwrapNamespaces: [bwrap, '--ro-bind', '/', '/', ...namespaces, '--', ...BASH],
    layout: layoutOnly,
    seccomp: withSeccomp.wrap(BASH, scope, ws.root),
    today: today.wrap(BASH, scope, ws.root),
  };
  const operations: Record<string, Operation> = Object.fromEntries(Object.entries(argvs).map(([key, argv]) => [key, () => run(argv, ws.root)]));
  const plan = context.sizes.execs;
  const samples = await sampleInTurns(operations, plan, { onRound: (round) => context.progress(`phase round ${round + 1}/${plan.rounds}`) });
  const bash = latencyFigure('bash --noprofile --norc -c true, spawned directly', samples['bash'] ?? []);
  const rows: Row[] = [
    infoRow('bwrap --ro-bind / / (no namespaces)', latencyFigure('bwrap, one bind', samples['bwrapBare'] ?? []), bash),
    infoRow(`+ pid, ipc, uts, net${userNamespace ? ', user' : ''} namespaces, cap-drop`, latencyFigure('bwrap, namespaces', samples['bwrapNamespaces'] ?? []), bash),
    infoRow('+ the session layout instead of / (about 30 mounts)', latencyFigure('bwrap, layout', samples['layout'] ?? []), bash),
    infoRow('+ the seccomp filter (through the /bin/sh that opens it)', latencyFigure('bwrap, layout, seccomp', samples['seccomp'] ?? []), bash),
    infoRow('+ prlimit: what a sandboxed command runs today', latencyFigure('bwrap, layout, seccomp, prlimit', samples['today'] ?? []), bash),
    infoRow('main thread: wrap() (canonical scope, layout)', figureOf('wrap()', 'ms', timeSync(() => today.wrap(BASH, scope, ws.root)))),
    infoRow('main thread: blocklist walks before and after', figureOf('startBlockedGuard + finish', 'ms', timeSync(() => guardOf().finish()))),
  ];
  const notes = [
    `${plan.warmup} warmup + ${plan.rounds} rounds of ${plan.perRound} spawns per variant, taking turns; each variant adds one layer to the one above it; cpu/call counts the spawned processes once reaped (10 ms ticks)`,
    `main-thread figures: ${SYNC_RUNS} synchronous runs on the bench workspace (${DEFAULT_BLOCKLIST.length} blocklist entries)`,
  ];
  return { rows, notes };
}

function run(argv: readonly string[], cwd: string): Promise<void> {
  const [file = '', ...args] = argv;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}: ${stderr.slice(0, 300)}`))));
  });
}

function timeSync(fn: () => unknown): number[] {
  const samples: number[] = [];
  for (let i = 0; i < SYNC_RUNS; i += 1) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  return samples;
}
