import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { benchWorkerUrl } from '../paths.js';
import { LEAN_OPS, type LeanDesign } from './design.js';
import { startInBatches } from './start-workers.js';
import { readBeneath } from './sync-read.js';

/** A call to a lean MessagePort worker; `text` is the file the main thread read. */
export interface PortRequest {
  id: number;
  op: (typeof LEAN_OPS)[keyof typeof LEAN_OPS];
  path?: string;
  text?: string;
}

/** A lean MessagePort worker's answer to the call `id`. */
export interface PortReply {
  id: number;
  text: string;
}

/**
 * The lean MessagePort design: one worker per lane, one standing 'message' listener per end dispatching by id; the
 * main thread reads the file (see readBeneath) and posts its text with the call, the worker formats it with
 * read_file's formatter and posts the result back.
 */
export async function startLeanPort(root: string, lanes: number): Promise<LeanDesign> {
  const pending = new Map<number, (text: string) => void>();
  const onReply = ({ id, text }: PortReply): void => {
    pending.get(id)?.(text);
    pending.delete(id);
  };
  const workers = await startInBatches(lanes, async () => {
    const worker = new Worker(benchWorkerUrl('lean-port-worker'));
    await once(worker, 'message');
    worker.on('message', onReply);
    return worker;
  });
  let nextId = 0;
  const call = (lane: number, request: Omit<PortRequest, 'id'>): Promise<string> => {
    const id = (nextId += 1);
    const reply = new Promise<string>((resolve) => pending.set(id, resolve));
    (workers[lane] as Worker).postMessage({ id, ...request });
    return reply;
  };
  return {
    label: 'lean MessagePort',
    read: (file, lane) => call(lane, { op: LEAN_OPS.read, path: file, text: readBeneath(root, file).toString('utf8') }),
    noop: (lane) => call(lane, { op: LEAN_OPS.noop }),
    close: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
