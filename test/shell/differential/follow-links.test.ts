import { describe, expect, it } from 'vitest';
import { describeEscape, runDifferential } from '../../../fuzz/shell/run.js';
import { sandboxAvailable } from '../../../fuzz/shell/sandbox.js';

const available = sandboxAvailable();
if (!available.ok) console.warn(`skipping the differential run of options that follow links: ${available.why}`);

// Threat family 25, bounded: commands with an option that follows links (ls -L, stat -L, find -L/-xtype, du -D,
// cp -H, tar -h, chown -RL, readlink -f, grep -R, diff -r...), drawn from seeds no earlier run used, run for real when
// the checker allows them. The seeds are fixed so the test is the same every time; a fresh draw is one variable away:
// TW_DIFF_FOLLOW_SEEDS=1,2,3 TW_DIFF_FOLLOW_COUNT=500 npx vitest run test/shell/differential/follow-links.test.ts
const SEEDS = (process.env['TW_DIFF_FOLLOW_SEEDS'] ?? '20260614,20260615').split(',').map(Number);
const COUNT = Number(process.env['TW_DIFF_FOLLOW_COUNT'] ?? 40);

describe.skipIf(!available.ok)('differential shell check, options that follow links', () => {
  it.each(SEEDS)(`no allowed command follows a link out (seed %i, ${COUNT} commands)`, { timeout: 240_000 }, async (seed) => {
    const report = await runDifferential({ seed, count: COUNT, concurrency: 2, tagged: 'follow:' });
    expect(report.generated).toBe(COUNT);
    expect(report.sandboxErrors).toEqual([]);
    expect(report.checkerErrors).toEqual([]);
    expect(report.escapes.map(describeEscape)).toEqual([]);
    // Some near misses (links that stay inside) are allowed and run, so the harness is exercised, not only the checker.
    expect(report.ran).toBeGreaterThan(0);
  });
});
