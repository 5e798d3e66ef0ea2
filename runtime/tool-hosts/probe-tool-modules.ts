import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolwardenError } from '../../src/errors.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';
import type { BrokerApi } from '../../src/protocol.js';
import type { Capability } from '../../src/capability/capability.js';
import { createBrokerServer, type BrokerServer } from '../broker/broker-server.js';
import { CallTracker } from '../broker/call-tracker.js';
import { startWorker } from './worker-pool.js';
import { ToolHostConnection } from './tool-host-connection.js';
import { workerLink } from './worker-link.js';
import { processLink } from './process-link.js';
import { startToolProcess, type ToolProcess } from '../isolation/start-tool-process.js';

/** Turns module paths (relative to the process cwd) or URLs into file URLs. */
export function toModuleUrls(modules: readonly string[]): string[] {
  return modules.map((spec) => (/^[a-z]+:\/\//i.test(spec) ? spec : pathToFileURL(path.resolve(spec)).href));
}

// No call is ever in flight in a probe, so this server refuses every request (BROKER_REFUSED).
const NO_BROKER: BrokerServer = createBrokerServer(() => ({}) as BrokerApi, new CallTracker(() => false), () => undefined);

/**
 * Loads host tool modules in a throwaway tool host, under the same restrictions as a session's, and returns their
 * listing entries: a worker, or for `isolation: 'process'` a child process under Node's permission model, so code
 * meant to run isolated never loads in the runtime's process. A module that fails fails here, naming itself.
 */
export async function probeToolModules(
  moduleUrls: readonly string[],
  heapMb: number,
  timeoutMs: number,
  isolation: Capability['isolation'],
  startProcess: (moduleUrls: readonly string[], heapMb: number) => Promise<ToolProcess> = startToolProcess,
): Promise<ToolInfo[]> {
  const session = { id: 'probe', workspaceRoot: path.parse(process.cwd()).root, readMaxChars: 0, toolTimeoutMs: timeoutMs, toolModules: [...moduleUrls] };
  const link = isolation === 'process' ? processLink(await startProcess(moduleUrls, heapMb)) : workerLink(await startWorker(heapMb));
  const worker = new ToolHostConnection(link, NO_BROKER, session, () => undefined);
  const timer = setTimeout(() => void worker.terminate({ reason: 'timeout', detail: 'probing tool modules timed out' }), timeoutMs);
  try {
    return await worker.describeHostTools();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolwardenError('INVALID_OPTIONS', `host tool modules could not be loaded: ${reason}`);
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

