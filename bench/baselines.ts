import { once } from 'node:events';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS } from '../src/limits.js';
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

/**
 * The design's own limit for a brokered read_file, with nothing of toolwarden's in between: the main thread reads the
 * file synchronously (open, fstat, read, close; no guard), posts the text to a worker of its own, which formats it
 * with read_file's formatter and posts it back. A target this cannot reach is out of reach of the design on this
 * machine, whatever the code around it does.
 */
export interface DesignCeiling {
  /** One read of `file` through one of the workers (`lane` modulo their number), resolved with the formatted text. */
  read(file: string, lane?: number): Promise<string>;
  close(): Promise<void>;
}

/** Starts `workers` format workers (one per session the ceiling stands for) and waits until each is ready. */
export async function startDesignCeiling(workers = 1): Promise<DesignCeiling> {
  const pool = await Promise.all(Array.from({ length: workers }, async () => {
    const worker = new Worker(benchWorkerUrl('format-worker'));
    await once(worker, 'message');
    return worker;
  }));
  return {
    read: async (file, lane = 0) => {
      const worker = pool[lane % pool.length] as Worker;
      worker.postMessage({ text: readWhole(file), path: file, maxChars: DEFAULT_LIMITS.readMaxChars });
      const [reply] = (await once(worker, 'message')) as [{ text: string }];
      return reply.text;
    },
    close: async () => {
      await Promise.all(pool.map((worker) => worker.terminate()));
    },
  };
}

function readWhole(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const { size } = fs.fstatSync(fd);
    const bytes = Buffer.allocUnsafe(size);
    const read = fs.readSync(fd, bytes, 0, size, 0);
    return bytes.toString('utf8', 0, read);
  } finally {
    fs.closeSync(fd);
  }
}
