import { execFileSync } from 'node:child_process';

/** Whether bubblewrap runs here (CI installs it); sandbox suites skip, saying so, without it. */
export const hasBwrap = ((): boolean => {
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
