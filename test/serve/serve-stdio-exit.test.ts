import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// `toolwarden serve` over stdio ends what it started: on stdin EOF or SIGTERM it exits within a second with no
// command left running, and an MCP cancellation (notifications/cancelled) kills the cancelled call's command. The
// client runs in a plain Node process of its own (the driver), as a real MCP client would.
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = path.join(REPO, 'dist/cli/main.js');
const DRIVER = fileURLToPath(new URL('./fixtures/serve-exit-driver.mjs', import.meta.url));

let ws: TempTree;
beforeAll(() => {
  ws = makeTempTree('tw-serve-exit', {});
});
afterAll(() => ws.cleanup());

interface Report {
  started: boolean;
  exitMs: number;
  left: string[];
  killedWithinMs?: number;
  next?: string;
}

function drive(mode: 'eof' | 'term' | 'cancel'): Report {
  return JSON.parse(execFileSync(process.execPath, [DRIVER, MAIN, ws.root, mode], { encoding: 'utf8', cwd: REPO, timeout: 60_000 })) as Report;
}

describe('toolwarden serve (stdio) ends what it started', () => {
  it.each([['eof' as const], ['term' as const]])('exits within a second on %s, with its in-flight command killed', (mode) => {
    const report = drive(mode);
    expect(report.started).toBe(true);
    expect(report.exitMs).toBeLessThan(1000);
    expect(report.left).toEqual([]);
  });

  it('kills the command of a call the client cancels, and keeps serving', () => {
    const report = drive('cancel');
    expect(report.started).toBe(true);
    expect(report.killedWithinMs).toBeLessThan(1000);
    expect(report.next).toContain('still serving');
    expect(report.left).toEqual([]);
  });
});
