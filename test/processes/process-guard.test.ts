import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessRegistry, type ProcessFinding, type ProcessGuard } from '../../runtime/processes/process-registry.js';
import { CHILD_ENV, SHELL, eventually } from './helpers.js';

// A registry's guard wraps each background process and checks after it, whatever ended it: its own exit, stop, or
// closeAll. The check runs once, after the whole group has ended, and its finding stays on the process.
const cwd = mkdtempSync(path.join(os.tmpdir(), 'tw-guard-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const FINDING: ProcessFinding = { code: 'BLOCKED_PATH_WRITTEN', message: 'found', details: { blockedPaths: [] } };

/** A guard that records its calls and, at finish, whether the process's last file was already written. */
function recordingGuard(last: string): { guard: (command: string) => ProcessGuard; calls: string[] } {
  const calls: string[] = [];
  const guard = (command: string): ProcessGuard => ({
    wrap: (argv) => {
      calls.push(`wrap ${command}`);
      return argv;
    },
    finish: async () => {
      calls.push(`finish ${existsSync(path.join(cwd, last)) ? 'after' : 'before'} the end`);
      return FINDING;
    },
  });
  return { guard, calls };
}

function registry(guard: (command: string) => ProcessGuard): ProcessRegistry {
  return new ProcessRegistry({ maxProcesses: 4, maxOutputChars: 1_000, stopGraceMs: 200, encoding: 'utf-8', shell: SHELL, env: CHILD_ENV, guard });
}

describe('ProcessRegistry guard', () => {
  it('checks once after a process exits by itself, and shows the finding in status, logs and list', async () => {
    const { guard, calls } = recordingGuard('done-1');
    const r = registry(guard);
    const { processId } = await r.start('sleep 0.2; touch done-1', cwd);
    expect(r.status(processId).finding).toBeUndefined();
    expect(await eventually(() => r.status(processId).status !== 'running')).toBe(true);
    expect(r.status(processId).finding).toEqual(FINDING);
    expect(r.logs(processId).finding).toEqual(FINDING);
    expect(r.list()[0]?.finding).toEqual(FINDING);
    expect(calls).toEqual(['wrap sleep 0.2; touch done-1', 'finish after the end']);
    await r.closeAll();
    expect(calls).toHaveLength(2);
  });

  it.each([
    ['stop', (r: ProcessRegistry, id: string) => r.stop(id).then(() => undefined)],
    ['closeAll', (r: ProcessRegistry) => r.closeAll()],
  ])('checks once after %s ends a process', async (_name, end) => {
    const { guard, calls } = recordingGuard('never');
    const r = registry(guard);
    const { processId } = await r.start('sleep 60', cwd);
    await end(r, processId);
    expect(r.status(processId).finding).toEqual(FINDING);
    expect(calls.filter((c) => c.startsWith('finish'))).toHaveLength(1);
    await r.closeAll();
  });

  it('near miss: a guard that finds nothing leaves the snapshot as it was', async () => {
    const r = registry(() => ({ wrap: (argv) => argv, finish: async () => undefined }));
    const { processId } = await r.start('true', cwd);
    expect(await eventually(() => r.status(processId).status !== 'running')).toBe(true);
    expect('finding' in r.status(processId)).toBe(false);
    await r.closeAll();
  });
});
