import { symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { makeTempTree } from '../helpers/temp-workspace.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const detection = await detectSandbox();
const run = (args: string[], env: Record<string, string> = {}) => execa(process.execPath, [MAIN, 'doctor', ...args], { reject: false, env, extendEnv: true });

describe('toolwarden doctor', () => {
  // One plain run serves the tests that read its text report (each run starts two sandboxes and a zygote).
  let plain: ReturnType<typeof run> | undefined;
  const plainRun = (): ReturnType<typeof run> => (plain ??= run([]));

  it.runIf(detection.available)('prints every property as pass and exits 0 on a working sandbox', async () => {
    const result = await plainRun();
    expect(result.exitCode, result.stdout).toBe(0);
    for (const property of ['proc-sys-read-only', 'network-absent', 'canary-invisible', 'blocked-path-unwritable', 'no-capabilities', 'no-new-privileges', 'seccomp-active', 'memory-and-cpu-limits', 'private-tmp-capped', 'resource-limits']) {
      expect(result.stdout).toMatch(new RegExp(`^pass\\s+${property}\\b`, 'm'));
    }
  });

  it.runIf(detection.available)('prints the same report as JSON with --json', async () => {
    const result = await run(['--json']);
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: { property: string; passed: boolean }[]; zygoteChecks: { property: string; passed: boolean }[] };
    expect(report.ok).toBe(true);
    expect(report.checks).toHaveLength(10);
    // The session sandbox (zygote) is proved with the same properties for a command it starts, plus its own memory.
    expect(report.zygoteChecks.map((c) => c.property)).toEqual([...report.checks.map((c) => c.property), 'zygote-memory-sealed']);
    expect(report.zygoteChecks.filter((c) => c.property !== 'zygote-memory-sealed').every((c) => c.passed)).toBe(true);
  });

  it.runIf(detection.available)('proves the same properties for a command the session sandbox (zygote) starts', async () => {
    const result = await plainRun();
    expect(result.stdout).toMatch(/^session sandbox \(zygote\): (used|not used, each command gets a bubblewrap of its own)$/m);
    expect(result.stdout).toMatch(/^ {2}(pass|FAIL)\s+zygote-memory-sealed\b/m);
    expect(result.stdout).toMatch(/^ {2}pass\s+proc-sys-read-only\b/m);
    expect(result.stdout).toMatch(/^ {2}pass\s+seccomp-active\b/m);
  });

  it('exits 1 and says why when bwrap is not on PATH', async () => {
    const result = await run(['--json'], { PATH: '/nonexistent' });
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, sandbox: { available: false, reason: 'bwrap was not found on PATH' }, checks: [], zygoteChecks: [] });
  });

  it.runIf(detection.available)('exits 1 and names the failed property when prlimit is missing', async () => {
    const bin = makeTempTree('tw-doctor-bin');
    try {
      symlinkSync(detection.path ?? '', bin.at('bwrap'));
      const result = await run([], { PATH: bin.root });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toMatch(/^FAIL\s+resource-limits\b/m);
      expect(result.stdout).toMatch(/^FAIL\s+memory-and-cpu-limits\b/m);
      expect(result.stdout).toMatch(/^pass\s+seccomp-active\b/m);
      expect(result.stdout).toMatch(/^pass\s+private-tmp-capped\b/m);
    } finally {
      bin.cleanup();
    }
  });

  it('refuses an unknown flag as a usage error', async () => {
    expect((await run(['--bogus'])).exitCode).toBe(2);
  });
});
