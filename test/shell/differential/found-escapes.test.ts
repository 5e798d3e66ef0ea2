import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChecker } from '../../../fuzz/shell/checker.js';
import { buildFixture } from '../../../fuzz/shell/fixture.js';
import { FOUND_ESCAPES, NEAR_MISSES } from './found-escapes.js';

// Each escape the differential checker found must no longer be allowed (it asks or is denied). Rows still
// pending on the current checker are skipped; the list of them is in /work/wt/shell-escapes.md and the report.
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-found-')));
const layout = buildFixture(path.join(root, 'base'));
const check = createChecker(layout);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('escapes found by the differential checker are not allowed', () => {
  const rows = FOUND_ESCAPES.map((r) => [r.command, r.family, r.evidence, r.pending] as const);
  it.each(rows.filter((r) => !r[3]))('%s (family %i, %s)', async (command) => {
    const result = await check(command.replaceAll('@B@', layout.base));
    expect(result.verdict).not.toBe('allow');
  });
  it.skip.each(rows.filter((r) => r[3]))('pending: %s (family %i, %s)', async (command) => {
    const result = await check(command.replaceAll('@B@', layout.base));
    expect(result.verdict).not.toBe('allow');
  });

  it.each(NEAR_MISSES)('near miss %s stays allowed', async (command) => {
    const result = await check(command.replaceAll('@B@', layout.base));
    expect(result.verdict, JSON.stringify(result.reasons)).toBe('allow');
  });

  it('every row names a family of issue 12 and its evidence', () => {
    for (const r of FOUND_ESCAPES) {
      expect(r.family).toBeGreaterThanOrEqual(0);
      expect(r.family).toBeLessThanOrEqual(7);
      expect(r.evidence).not.toBe('');
    }
  });
});
