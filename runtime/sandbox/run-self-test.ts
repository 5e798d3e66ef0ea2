import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { buildSelfTestScript, parseSelfTestOutput, type SelfTestCheck, type SelfTestTargets } from '../../src/sandbox/self-test.js';
import type { SandboxScope } from '../../src/sandbox/types.js';
import { createBubblewrapSandbox, featuresOf } from './create-sandbox.js';
import type { SandboxDetection } from './detect-sandbox.js';

/** How long the one probe sandbox may take. @default 10000 */
export interface SelfTestOptions {
  readonly timeoutMs?: number;
  /** Check that the network is absent (the default; a session with net `'*'` shares the host's). @default true */
  readonly networkAbsent?: boolean;
}

/**
 * Proves the sandbox's properties instead of assuming them: one bwrap run with the layout a session gets (a
 * throwaway workspace with `.git/hooks`, a canary file outside it, default limits) runs every probe and reports
 * each property. Detection must have found a working bwrap.
 */
export async function runSandboxSelfTest(detection: SandboxDetection, options: SelfTestOptions = {}): Promise<SelfTestCheck[]> {
  if (!detection.available || detection.path === undefined) throw new Error('runSandboxSelfTest needs a detected bwrap');
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolwarden-selftest-')));
  try {
    const workspace = join(base, 'workspace');
    const blockedDir = join(workspace, '.git', 'hooks');
    const canary = join(base, 'outside', 'canary');
    mkdirSync(blockedDir, { recursive: true });
    mkdirSync(join(base, 'outside'));
    writeFileSync(canary, 'canary\n');
    const targets: SelfTestTargets = { canary, blockedDir, networkAbsent: options.networkAbsent ?? true, maxProcesses: DEFAULT_LIMITS.commandMaxProcesses };
    const scope: SandboxScope = {
      workspaceRoot: workspace,
      readRoots: [],
      blockedInWorkspace: [blockedDir],
      net: targets.networkAbsent === false ? ['*'] : false,
      limits: { tmpBytes: DEFAULT_LIMITS.sandboxTmpBytes, maxProcesses: DEFAULT_LIMITS.commandMaxProcesses, memoryBytes: DEFAULT_LIMITS.commandMemoryBytes, cpuSeconds: DEFAULT_LIMITS.commandCpuSeconds },
    };
    const [file = '', ...args] = createBubblewrapSandbox(detection.path, featuresOf(detection)).wrap(['/bin/sh', '-c', buildSelfTestScript(targets)], scope, workspace);
    const { stdout, failure } = await run(file, args, options.timeoutMs ?? 10_000);
    return parseSelfTestOutput(stdout, targets, failure);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

function run(file: string, args: string[], timeoutMs: number): Promise<{ stdout: string; failure: string | undefined }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, killSignal: 'SIGKILL', env: { PATH: '/usr/bin:/bin' } }, (error, stdout, stderr) => {
      resolve({ stdout, failure: error === null ? undefined : stderr.trim() || error.message });
    });
  });
}
