// The lean MessagePort design's worker: one standing listener; formats the text the main thread read.
import { parentPort } from 'node:worker_threads';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { formatReadResult } from '../../src/text/read-format.js';
import { LEAN_OPS, NOOP_REPLY } from '../lean/design.js';
import type { PortRequest } from '../lean/port-design.js';

parentPort?.on('message', ({ id, op, path = '', text = '' }: PortRequest) => {
  const reply = op === LEAN_OPS.read ? formatReadResult(text, { path, maxChars: DEFAULT_LIMITS.readMaxChars }).text : NOOP_REPLY;
  parentPort?.postMessage({ id, text: reply });
});
parentPort?.postMessage('ready');
