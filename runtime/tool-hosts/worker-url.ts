import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The entry files of code that runs off the main thread, all under `workers/`: the one place they are named. */
const WORKER_ENTRIES = {
  /** A pooled session worker (workers/session-worker.ts). */
  'session-worker': 'session-worker.js',
  /** An isolated tool host process (workers/process-host.ts). */
  'process-host': 'process-host.js',
  /** The walk pool's task (workers/walk/task.ts). */
  'walk-task': 'walk/task.js',
} as const;

/** One of {@link WORKER_ENTRIES}. */
export type WorkerEntry = keyof typeof WORKER_ENTRIES;

/**
 * The URL of a worker entry. When the runtime itself runs from TypeScript source (vitest), the compiled entry next
 * to it does not exist, so the build in dist/ is used instead; `undefined` when neither exists.
 */
export function findWorkerFile(entry: WorkerEntry): URL | undefined {
  const relative = WORKER_ENTRIES[entry];
  const beside = new URL(`../../workers/${relative}`, import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const compiled = new URL(`../../dist/workers/${relative}`, import.meta.url);
  return existsSync(fileURLToPath(compiled)) ? compiled : undefined;
}

/** The URL of a worker entry (see {@link findWorkerFile}); the dist/ one when neither exists yet, for the error to name. */
export function workerFileUrl(entry: WorkerEntry): URL {
  return findWorkerFile(entry) ?? new URL(`../../dist/workers/${WORKER_ENTRIES[entry]}`, import.meta.url);
}
