import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScenarioResult } from './types.js';

/**
 * Runs one scenario in a fresh Node process (same flags, so `--cpu-prof` reaches it), so no scenario inherits the
 * RSS, threads or JIT state of another: the cost of a fork, for one, grows with the parent's RSS. Its table and
 * progress go straight to this process's stdout and stderr; its result comes back through a JSON file.
 */
export async function runIsolated(id: number, quick: boolean, scratch: string): Promise<ScenarioResult> {
  const resultFile = path.join(scratch, `scenario-${id}.json`);
  const script = fileURLToPath(new URL('./main.js', import.meta.url));
  const args = [...process.execArgv, script, '--scenario', String(id), '--result-file', resultFile, ...(quick ? ['--quick'] : [])];
  const started = performance.now();
  const exit = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.once('error', () => resolve(null));
    child.once('exit', (code) => resolve(code));
  });
  if (fs.existsSync(resultFile)) return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as ScenarioResult;
  return { id, title: `scenario ${id}`, rows: [], notes: [], skipped: `crashed: its process exited with code ${String(exit)} before writing a result`, seconds: (performance.now() - started) / 1000 };
}
