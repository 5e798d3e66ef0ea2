import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSelfTestScript, describeFailures, parseSelfTestOutput, selfTestProperties, type SelfTestCheck, type SelfTestTargets } from '../../src/sandbox/self-test.js';
import { createSandbox } from '../../runtime/sandbox/create-sandbox.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { runSandboxSelfTest } from '../../runtime/sandbox/run-self-test.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const detection = await detectSandbox();
const LIMITS = { maxProcesses: 512, memoryBytes: 8 * 2 ** 30, cpuSeconds: 600, tmpBytes: 2 ** 30 };
const TARGETS: SelfTestTargets = { canary: '/outside/canary', blockedDir: '/ws/.git/hooks', ...LIMITS };

describe('parseSelfTestOutput', () => {
  it('reads each property and fails the ones the probe did not answer', () => {
    const checks = parseSelfTestOutput('proc-sys-read-only ok /proc/sys\nseccomp-active fail Seccomp: 0\n', TARGETS, 'bwrap: died');
    expect(checks.map((c) => c.property)).toEqual(selfTestProperties(TARGETS));
    expect(checks.find((c) => c.property === 'proc-sys-read-only')?.passed).toBe(true);
    expect(checks.find((c) => c.property === 'seccomp-active')).toEqual({ property: 'seccomp-active', passed: false, detail: 'Seccomp: 0' });
    expect(checks.find((c) => c.property === 'no-capabilities')).toEqual({ property: 'no-capabilities', passed: false, detail: 'no answer from the probe: bwrap: died' });
  });

  it('does not let a second line for a property overturn the first', () => {
    expect(parseSelfTestOutput('seccomp-active fail x\nseccomp-active ok y\n', TARGETS)[6]?.passed).toBe(false);
  });

  it('leaves out the network property when the network is shared', () => {
    expect(selfTestProperties({ ...TARGETS, networkAbsent: false })).not.toContain('network-absent');
  });
});

describe('createSandbox with a failed self-test', () => {
  const failed: SelfTestCheck[] = [{ property: 'seccomp-active', passed: false, detail: 'Seccomp: 0' }, { property: 'no-capabilities', passed: true, detail: '' }];
  const present = { available: true, path: '/usr/bin/bwrap' } as const;

  it("fails closed in 'required' mode, naming the property", () => {
    expect(() => createSandbox('required', present, failed)).toThrowError(expect.objectContaining({ code: 'SANDBOX_UNAVAILABLE', message: expect.stringMatching(/seccomp-active.*Seccomp: 0/) }));
    expect(describeFailures(failed)).not.toMatch(/no-capabilities/);
  });

  it("keeps the sandbox in 'auto' mode and warns, naming the property", () => {
    const choice = createSandbox('auto', present, failed);
    expect(choice.sandbox.kind).toBe('bubblewrap');
    expect(choice.warning).toMatch(/self-test failed: seccomp-active/);
  });
});

describe.runIf(detection.available)('the self-test against real sandboxes', () => {
  let tree: TempTree;
  let targets: SelfTestTargets;

  beforeAll(() => {
    tree = makeTempTree('tw-selftest');
    mkdirSync(tree.at('ws/.git/hooks'), { recursive: true });
    writeFileSync(tree.at('canary'), 'x');
    targets = { canary: tree.at('canary'), blockedDir: tree.at('ws/.git/hooks'), ...LIMITS, privateDirs: ['/tmp', '/tmp/home'] };
  });
  afterAll(() => tree.cleanup());

  it('passes every property in the sandbox a session gets', async () => {
    const checks = await runSandboxSelfTest(detection);
    expect(checks.filter((c) => !c.passed)).toEqual([]);
    expect(checks.map((c) => c.property)).toEqual(selfTestProperties(TARGETS));
  });

  // A weak bwrap (the host's root bind-mounted, nothing else) must be caught: each probe can fail.
  it('fails the properties a weak sandbox lacks', async () => {
    const weak = ['--bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--die-with-parent', '--', '/bin/sh', '-c', buildSelfTestScript(targets)];
    const stdout = await new Promise<string>((resolve) => execFile(detection.path ?? 'bwrap', weak, (_error, out) => resolve(out)));
    const failed = parseSelfTestOutput(stdout, targets).filter((c) => !c.passed).map((c) => c.property);
    expect(failed).toEqual(expect.arrayContaining(['network-absent', 'canary-invisible', 'blocked-path-unwritable', 'seccomp-active', 'memory-and-cpu-limits', 'private-tmp-capped', 'resource-limits']));
    if (process.getuid?.() === 0) expect(failed).toEqual(expect.arrayContaining(['proc-sys-read-only', 'no-capabilities']));
  });

  // Capped tmpfs on /tmp and /dev/shm, but bwrap's /dev left writable: the property must still fail, on /dev alone.
  it('fails private-tmp-capped when /dev takes a file, and passes it once /dev is read-only', async () => {
    const capped = { ...targets, privateDirs: ['/tmp', '/dev/shm'], tmpBytes: 1 << 24 };
    const layout = (devReadOnly: boolean): string[] => ['--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', ...(devReadOnly ? ['--remount-ro', '/dev'] : []),
      '--size', String(1 << 24), '--tmpfs', '/dev/shm', '--size', String(1 << 24), '--tmpfs', '/tmp', '--die-with-parent', '--', '/bin/sh', '-c', buildSelfTestScript(capped)];
    const property = async (devReadOnly: boolean): Promise<SelfTestCheck | undefined> => {
      const stdout = await new Promise<string>((resolve) => execFile(detection.path ?? 'bwrap', layout(devReadOnly), (_error, out) => resolve(out)));
      return parseSelfTestOutput(stdout, capped).find((c) => c.property === 'private-tmp-capped');
    };
    expect((await property(false))?.passed).toBe(false);
    expect((await property(true))?.passed).toBe(true);
  });

  // As root RLIMIT_NPROC is set but does not bind: the probe must see forks refused, which only a pids cgroup does.
  it.runIf(process.getuid?.() === 0)('as root, fails resource-limits when the rlimit is set but no pids cgroup holds the sandbox', async () => {
    const probing = { ...targets, processCountProbe: 64 };
    const argv = ['--bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--die-with-parent', '--', 'prlimit', '--nproc=512', '--', '/bin/sh', '-c', buildSelfTestScript(probing)];
    const stdout = await new Promise<string>((resolve) => execFile(detection.path ?? 'bwrap', argv, (_error, out) => resolve(out)));
    const check = parseSelfTestOutput(stdout, probing).find((c) => c.property === 'resource-limits');
    expect(check).toMatchObject({ passed: false, detail: expect.stringContaining('64 of 64 background processes started') });
  });
});
