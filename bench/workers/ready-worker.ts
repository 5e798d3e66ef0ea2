// The physical limit of a session open: a bare worker that only says it is ready.
import { parentPort } from 'node:worker_threads';

parentPort?.postMessage('ready');
