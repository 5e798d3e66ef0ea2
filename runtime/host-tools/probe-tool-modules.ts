import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolwardenError } from '../../src/errors.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';
import type { BrokerApi } from '../../src/protocol.js';
import { BoundWorker } from '../workers/bound-worker.js';
import { startWorker } from '../workers/worker-pool.js';

/** Turns module paths (relative to the process cwd) or URLs into file URLs. */
export function toModuleUrls(modules: readonly string[]): string[] {
  return modules.map((spec) => (/^[a-z]+:\/\//i.test(spec) ? spec : pathToFileURL(path.resolve(spec)).href));
}

const NO_BROKER: BrokerApi = new Proxy({} as BrokerApi, {
  get: () => async () => ({ ok: false, error: { code: 'TOOL_NOT_ALLOWED', message: 'no broker while probing tool modules' } }),
});

/**
 * Loads host tool modules in a throwaway worker, under the same restrictions as a session worker, and returns their
 * listing entries. Host code never runs on the main thread. A module that fails fails here, naming itself.
 */
export async function probeToolModules(moduleUrls: readonly string[], heapMb: number, timeoutMs: number): Promise<ToolInfo[]> {
  const idle = await startWorker(heapMb);
  const worker = new BoundWorker(
    idle,
    NO_BROKER,
    { id: 'probe', workspaceRoot: path.parse(process.cwd()).root, readMaxChars: 0, toolTimeoutMs: timeoutMs, toolModules: [...moduleUrls] },
    () => undefined,
  );
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

