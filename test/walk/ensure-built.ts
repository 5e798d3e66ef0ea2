import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TASK = `${REPO}dist/workers/walk/task.js`;
const SOURCES = ['src/walk', 'workers/walk'];

/**
 * Piscina threads load compiled JavaScript: builds the project when the compiled walk task is missing or older
 * than its sources (`npm test` builds first, so this only matters when running this suite alone).
 */
export function ensureWalkTaskBuilt(): void {
  if (existsSync(TASK) && newestSourceTime() <= statSync(TASK).mtimeMs) return;
  try {
    execSync('npx tsc -p tsconfig.json', { cwd: REPO, stdio: 'ignore' });
  } catch {
    // Other people's type errors fail the exit code; the files are still emitted.
  }
}

function newestSourceTime(): number {
  let newest = 0;
  for (const dir of SOURCES) {
    for (const name of readdirSync(`${REPO}${dir}`)) newest = Math.max(newest, statSync(`${REPO}${dir}/${name}`).mtimeMs);
  }
  return newest;
}
