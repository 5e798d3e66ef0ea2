import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { benchWorkerUrl } from '../paths.js';
import { LEAN_OPS, type LeanDesign } from './design.js';
import { DATA_OFFSET, SLOT, STATE, waitAsync, type SabLaneData } from './sab-layout.js';
import { startInBatches } from './start-workers.js';
import { readBeneath } from './sync-read.js';

interface Lane {
  worker: Worker;
  slots: Int32Array;
  bytes: Buffer;
  answer: { resolve: (text: string) => void; reject: (error: Error) => void } | undefined;
}

/**
 * The lean SharedArrayBuffer design: one buffer per worker; the main thread reads the file straight into it (see
 * readBeneath), writes the call beside it and wakes the worker with Atomics.notify; the worker (blocked in
 * Atomics.wait) formats the text with read_file's formatter, writes the answer in its place and rings a doorbell
 * all workers share; the main thread, waiting on the doorbell with Atomics.waitAsync, serves every answered lane in
 * one pass. `laneBytes` bounds a call's path, text and answer.
 */
export async function startLeanSab(root: string, lanes: number, laneBytes: number): Promise<LeanDesign> {
  const doorbellBuffer = new SharedArrayBuffer(4);
  const doorbell = new Int32Array(doorbellBuffer);
  const all = await startInBatches(lanes, async (): Promise<Lane> => {
    const buffer = new SharedArrayBuffer(DATA_OFFSET + laneBytes);
    const workerData: SabLaneData = { lane: buffer, doorbell: doorbellBuffer };
    const worker = new Worker(benchWorkerUrl('lean-sab-worker'), { workerData });
    await once(worker, 'message');
    return { worker, slots: new Int32Array(buffer, 0, DATA_OFFSET / 4), bytes: Buffer.from(buffer, DATA_OFFSET), answer: undefined };
  });
  const waiting: Lane[] = [];
  let armed = false;
  let rung = 0;

  // Read the doorbell before the pass: a lane answered after that read rings it past `rung`, so the wait below
  // returns at once instead of missing it.
  const serve = (): void => {
    armed = false;
    rung = Atomics.load(doorbell, 0);
    for (let i = waiting.length - 1; i >= 0; i -= 1) {
      const lane = waiting[i] as Lane;
      if (Atomics.load(lane.slots, SLOT.state) !== STATE.answered) continue;
      waiting[i] = waiting[waiting.length - 1] as Lane;
      waiting.pop();
      const { resolve, reject } = lane.answer as NonNullable<Lane['answer']>;
      lane.answer = undefined;
      if (lane.slots[SLOT.overflow]) reject(new Error(`an answer did not fit the lane's ${lane.bytes.length} bytes`));
      else resolve(lane.bytes.toString('utf8', 0, lane.slots[SLOT.answerBytes]));
      Atomics.store(lane.slots, SLOT.state, STATE.idle);
    }
    arm();
  };
  const arm = (): void => {
    if (armed || waiting.length === 0) return;
    armed = true;
    const wait = waitAsync(doorbell, 0, rung);
    if (wait.async) void wait.value.then(serve);
    else queueMicrotask(serve);
  };
  const call = (laneIndex: number, op: number, file?: string): Promise<string> => {
    const lane = all[laneIndex] as Lane;
    if (lane.answer) throw new Error(`lane ${laneIndex} already has a call in flight`);
    let pathBytes = 0;
    let textBytes = 0;
    if (file !== undefined) {
      pathBytes = lane.bytes.write(file, 0);
      textBytes = readBeneath(root, file, lane.bytes.subarray(pathBytes)).byteLength;
    }
    lane.slots[SLOT.op] = op;
    lane.slots[SLOT.pathBytes] = pathBytes;
    lane.slots[SLOT.textBytes] = textBytes;
    const answered = new Promise<string>((resolve, reject) => (lane.answer = { resolve, reject }));
    waiting.push(lane);
    Atomics.store(lane.slots, SLOT.state, STATE.called);
    Atomics.add(lane.slots, SLOT.request, 1);
    Atomics.notify(lane.slots, SLOT.request, 1);
    arm();
    return answered;
  };
  return {
    label: 'lean SharedArrayBuffer',
    read: (file, lane) => call(lane, LEAN_OPS.read, file),
    noop: (lane) => call(lane, LEAN_OPS.noop),
    close: async () => {
      await Promise.all(all.map((lane) => lane.worker.terminate()));
    },
  };
}
