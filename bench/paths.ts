import { fileURLToPath } from 'node:url';

// This file runs from dist/bench/paths.js: the repository root is two levels up.
const REPO_ROOT_URL = new URL('../../', import.meta.url);

/** Absolute path of a file in the repository, from a `/`-separated path relative to its root. */
export function repoPath(relative: string): string {
  return fileURLToPath(new URL(relative, REPO_ROOT_URL));
}

/** File URL of a compiled bench worker (bench/workers/<name>.ts, built to dist/bench/workers/<name>.js). */
export function benchWorkerUrl(name: string): URL {
  return new URL(`./workers/${name}.js`, import.meta.url);
}
