import type { MessagePort } from 'node:worker_threads';
import type { Transport } from '../../src/protocol/transport.js';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { ToolHostLink } from './tool-host-connection.js';
import type { IdleWorker } from './worker-pool.js';

/**
 * The link to a pooled session worker: the broker, the tool host and the control plane each on a port of their own
 * (so a comlink release message can never close another).
 */
export function workerLink(idle: IdleWorker): ToolHostLink {
  const { worker, brokerPort, hostPort } = idle;
  return {
    kind: 'worker',
    broker: portTransport(brokerPort),
    host: portTransport(hostPort),
    control: nodeEndpoint(idle.controlPort),
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
      idle.controlPort.close();
    },
    output: idle.output,
  };
}

function portTransport(port: MessagePort): Transport<never> {
  return { post: (data) => port.postMessage(data), listen: (listener) => void port.on('message', listener) };
}
