import type { MessagePort } from 'node:worker_threads';
import type { Transport } from '../../src/protocol/transport.js';
import { PROTOCOL_VERSION, type BindMessage } from '../../src/protocol/worker-bind.js';
import type { ToolHostLink } from './tool-host-connection.js';
import type { IdleWorker } from './worker-pool.js';

/**
 * The link to a pooled session worker: the broker and the tool host each on a port of their own (one channel per
 * direction, so a release message can never close the other side), the bind on the worker's own port.
 */
export function workerLink(idle: IdleWorker): ToolHostLink {
  const { worker, brokerPort, hostPort } = idle;
  return {
    kind: 'worker',
    broker: portTransport(brokerPort),
    host: portTransport(hostPort),
    bind: (session) => {
      const bind: BindMessage = { type: 'bind', version: PROTOCOL_VERSION, session };
      // Posted after the open returns (waking the worker costs a tenth of a millisecond); calls made before it lands
      // wait in the tool host port, which the worker starts reading only once it is bound.
      setImmediate(() => worker.postMessage(bind));
    },
    onExit: (listener) => {
      let lastError = '';
      worker.on('error', (error: Error & { code?: string }) => {
        lastError = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'the worker ran out of memory' : `the worker crashed: ${error.message}`;
      });
      worker.once('exit', (exitCode) => listener(lastError || `the worker exited with code ${exitCode}`));
    },
    stop: async () => {
      await worker.terminate();
    },
    release: () => {
      brokerPort.close();
      hostPort.close();
    },
    output: idle.output,
  };
}

function portTransport(port: MessagePort): Transport<never> {
  return { post: (data) => port.postMessage(data), listen: (listener) => void port.on('message', listener) };
}
