// The lean SharedArrayBuffer design's worker: blocks in Atomics.wait on its lane (measured against Atomics.waitAsync,
// which keeps the worker's event loop free: wait took 12-27% less CPU per 4 KiB read, see bench/README.md), formats
// the text the main thread read into the lane, writes the answer in its place and rings the doorbell.
import { workerData, parentPort } from 'node:worker_threads';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { formatReadResult } from '../../src/text/read-format.js';
import { LEAN_OPS, NOOP_REPLY } from '../lean/design.js';
import { DATA_OFFSET, SLOT, STATE, type SabLaneData } from '../lean/sab-layout.js';

const { lane, doorbell: doorbellBuffer } = workerData as SabLaneData;
const slots = new Int32Array(lane, 0, DATA_OFFSET / 4);
const bytes = Buffer.from(lane, DATA_OFFSET);
const doorbell = new Int32Array(doorbellBuffer);

function answer(): void {
  const pathBytes = slots[SLOT.pathBytes] ?? 0;
  let reply = NOOP_REPLY;
  if (slots[SLOT.op] === LEAN_OPS.read) {
    const path = bytes.toString('utf8', 0, pathBytes);
    const text = bytes.toString('utf8', pathBytes, pathBytes + (slots[SLOT.textBytes] ?? 0));
    reply = formatReadResult(text, { path, maxChars: DEFAULT_LIMITS.readMaxChars }).text;
  }
  const written = bytes.write(reply, 0);
  slots[SLOT.answerBytes] = written;
  // write() stops at the end of the lane; only then can the answer have been cut.
  slots[SLOT.overflow] = written > bytes.length - 4 && written < Buffer.byteLength(reply) ? 1 : 0;
  Atomics.store(slots, SLOT.state, STATE.answered);
  Atomics.add(doorbell, 0, 1);
  Atomics.notify(doorbell, 0);
}

parentPort?.postMessage('ready');
for (let seen = 0; ; ) {
  Atomics.wait(slots, SLOT.request, seen);
  seen = Atomics.load(slots, SLOT.request);
  if (Atomics.load(slots, SLOT.state) === STATE.called) answer();
}
