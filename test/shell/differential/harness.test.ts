import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../../fuzz/shell/fixture.js';
import { createBench, isEscape, judge, type Bench } from '../../../fuzz/shell/judge.js';
import { sandboxAvailable } from '../../../fuzz/shell/sandbox.js';

const available = sandboxAvailable();
if (!available.ok) console.warn(`skipping the differential harness tests: ${available.why}`);
const limits = { seconds: 2, maxOutput: 65536 };

// The harness must see an escape when one happens, whatever the checker says: these run without asking it.
describe.skipIf(!available.ok)('the sandboxed harness sees what a command touches', () => {
  let root: string;
  let bench: Bench;
  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-harness-')));
    bench = createBench(buildFixture(path.join(root, 'base')));
  });
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(bench.scratchRoot, { recursive: true, force: true });
  });
  const at = (c: string): string => c.replaceAll('@B@', path.join(root, 'base'));

  it.each([
    ['cat link-out-file', 'openat'],
    ['cat self/../outside/secret.txt', 'openat'],
    ['echo x > link-out-dir/pwned', 'openat'],
    ['ln -s x ../ws-evil/l', 'symlinkat'],
    ['./evil.sh', 'execve'],
    ['mv a.txt ../outside/', 'renameat2'],
    ['touch .git/hooks/pre-commit', 'openat'],
    ['chmod 600 link-out-file', 'fchmodat'],
    ['ls @B@/ws-evil', 'openat'],
  ])('flags %s (%s)', async (command, syscall) => {
    const j = await judge(bench, at(command), limits);
    expect(isEscape(j)).toBe(true);
    expect(j.violations.map((v) => v.syscall)).toContain(syscall);
  });

  it.each(['cat a.txt', 'git status', 'sort a.txt > out.txt', 'cat <<EOF\nhi\nEOF\n', 'ls -la src', 'mkdir -p d/e && cd d && touch f', 'cp -r src copy', 'find . -name "*.txt"', 'awk "{print}" a.txt | sort'])(
    'does not flag %s',
    async (command) => {
      const j = await judge(bench, at(command), limits);
      expect(j.error).toBeUndefined();
      expect(j.violations).toEqual([]);
      expect(isEscape(j)).toBe(false);
    },
  );

  it('sees a read in the output even without a trace (the canary)', async () => {
    const j = await judge(bench, 'cat link-out-file', limits);
    expect(j.canaryRead).toBe(true);
  });
});
