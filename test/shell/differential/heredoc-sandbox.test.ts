import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../../fuzz/shell/fixture.js';
import { createBench, isEscape, judge, type Bench } from '../../../fuzz/shell/judge.js';
import { sandboxAvailable } from '../../../fuzz/shell/sandbox.js';
import { HEREDOC_CASES, HEREDOC_NEAR_MISSES } from '../heredoc-cases.js';

const available = sandboxAvailable();
if (!available.ok) console.warn(`skipping the here-document sandbox rows: ${available.why}`);
const limits = { seconds: 2, maxOutput: 65536 };

// Real bash, traced in the sandbox, says for every row whether the payload runs: the table's `runs` column is what
// bash does, not what the checker's authors believe it does.
describe.skipIf(!available.ok)('here-document rows against real bash', () => {
  let root: string;
  let bench: Bench;
  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-heredoc-')));
    bench = createBench(buildFixture(path.join(root, 'base')));
  });
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(bench.scratchRoot, { recursive: true, force: true });
  });

  it.each(HEREDOC_CASES.map((c) => [c.command, c.runs] as const))('%j: the payload runs = %s', async (command, runs) => {
    const j = await judge(bench, command, limits);
    expect(j.error).toBeUndefined();
    expect(isEscape(j), JSON.stringify(j.violations)).toBe(runs);
  });

  it.each(HEREDOC_NEAR_MISSES)('%j touches nothing outside', async (command) => {
    const j = await judge(bench, command, limits);
    expect(j.error).toBeUndefined();
    expect(isEscape(j), JSON.stringify(j.violations)).toBe(false);
  });
});
