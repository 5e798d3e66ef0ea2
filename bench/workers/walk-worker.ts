// The lean design of grep: the in-process JS walk, run in a thread of its own off the main thread.
import { parentPort } from 'node:worker_threads';
import { grepInProcess } from '../js-walk.js';
import type { WalkRequest } from '../lean/walk-design.js';

parentPort?.on('message', ({ id, root, pattern, maxResults }: WalkRequest) => {
  parentPort?.postMessage({ id, matches: grepInProcess(root, pattern, maxResults) });
});
parentPort?.postMessage('ready');
