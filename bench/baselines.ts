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

/** A worker echoing messages: `ping` is one raw postMessage round trip between the main thread and it. */
export interface EchoWorker {
  ping(message: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts the echo worker and waits until it is ready. */
export async function startEchoWorker(): Promise<EchoWorker> {
  const worker = new Worker(benchWorkerUrl('echo-worker'));
  await once(worker, 'message');
  return {
    ping: async (message) => {
      worker.postMessage(message);
      const [reply] = await once(worker, 'message');
      return reply as unknown;
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
