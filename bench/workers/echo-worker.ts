// The physical limit of a brokered call: a worker that posts every message straight back.
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', (message: unknown) => parentPort?.postMessage(message));
parentPort?.postMessage('ready');
