import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { JsGrepMatch } from '../js-walk.js';
import { benchWorkerUrl } from '../paths.js';

/** A grep asked of the lean walk thread. */
export interface WalkRequest {
  id: number;
  root: string;
  pattern: string;
  maxResults: number;
}

/** The lean design of grep: the in-process walk in a thread of its own, reached by one round trip. */
export interface LeanWalk {
  grep(root: string, pattern: string, maxResults: number): Promise<JsGrepMatch[]>;
  close(): Promise<void>;
}

/**
 * Starts the lean walk thread: toolwarden's design walks off the main thread, so the least it can cost is the
 * in-process walk (bench/js-walk.ts) plus one round trip carrying the matches. One standing listener, calls by id.
 */
export async function startLeanWalk(): Promise<LeanWalk> {
  const worker = new Worker(benchWorkerUrl('walk-worker'));
  await once(worker, 'message');
  const pending = new Map<number, (matches: JsGrepMatch[]) => void>();
  worker.on('message', ({ id, matches }: { id: number; matches: JsGrepMatch[] }) => {
    pending.get(id)?.(matches);
    pending.delete(id);
  });
  let nextId = 0;
  return {
    grep: (root, pattern, maxResults) => {
      const id = (nextId += 1);
      const answer = new Promise<JsGrepMatch[]>((resolve) => pending.set(id, resolve));
      const request: WalkRequest = { id, root, pattern, maxResults };
      worker.postMessage(request);
      return answer;
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
