import { symlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { runSandboxed } from '../helpers/run-sandboxed.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// A runtime whose PATH has bwrap but no prlimit: no rlimit is set, so its self-test fails 'memory-and-cpu-limits' and
// 'resource-limits' (a real failure, not a stub).
// The PATH dir is inside the workspace, so the sandboxed shell finds bash through it too.
const detection = await detectSandbox();

describe.runIf(detection.available)('a runtime whose sandbox fails its self-test', () => {
  let ws: TempTree;
  let binDir = '';

  beforeAll(() => {
    ws = makeTempTree('tw-selftest-ws', { 'bin/.keep': '' });
    binDir = ws.at('bin');
    for (const tool of ['bwrap', 'bash', 'sh']) symlinkSync(tool === 'bwrap' ? detection.path ?? '' : `/bin/${tool}`, `${binDir}/${tool}`);
  });
  afterAll(() => ws.cleanup());

  it("refuses a 'required' session with SANDBOX_UNAVAILABLE naming the property", async () => {
    await expect(runSandboxed('self', ws.root, ['echo hi'], { envPath: binDir })).rejects.toThrow(/SANDBOX_UNAVAILABLE .*self-test failed: memory-and-cpu-limits .*resource-limits/);
  });

  it("warns once in 'auto' mode, naming the property, and still runs commands in the sandbox", async () => {
    const [first, second] = await runSandboxed('self', ws.root, ['echo one', 'echo two'], { envPath: binDir, sandbox: 'auto' });
    expect(first?.isError, first?.text).toBe(false);
    expect(first?.sandboxWarning).toMatch(/self-test failed: memory-and-cpu-limits .*resource-limits/);
    expect(first?.text).toMatch(/^\[toolwarden: OS sandbox self-test failed: memory-and-cpu-limits .*resource-limits/);
    expect(second?.sandboxWarning).toBeNull();
    expect(second?.stdout).toBe('two\n');
  });
});
