import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { benchWorkerUrl } from './paths.js';

/** Starts a bare worker and resolves once it posted "ready"; returns the time taken in ms. The worker is stopped. */
export async function timeBareWorkerStart(): Promise<number> {
  const started = performance.now();
  const worker = new Worker(benchWorkerUrl('ready-worker'));
  await once(worker, 'message');
  const elapsed = performance.now() - started;
  await worker.terminate();
  return elapsed;
}
