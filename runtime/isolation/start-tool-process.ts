import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolwardenError } from '../../src/errors.js';
import { workerFileUrl } from '../workers/worker-url.js';
import { permissionFlags } from './permission-flags.js';
import { isControl } from '../../src/protocol/process-ipc.js';
import { collectReadPaths } from './read-allowlist.js';
import { buildToolProcessBwrapArgs } from '../../src/sandbox/tool-process-args.js';

/** A started tool host process that has posted "ready" and is not yet bound to a session. */
export interface ToolProcess {
  readonly child: ChildProcess;
  /** Last lines the process wrote to stdout/stderr (captured, never mixed into the host's output). */
  readonly output: string[];
}

const OUTPUT_LINES_KEPT = 50;

/**
 * Starts a tool host process under Node's permission model: read access only to its own code and the given tool
 * modules (see collectReadPaths), no fs write, child processes or workers, an empty environment, its own heap limit
 * and explicit Node flags (never the host's execArgv or NODE_OPTIONS). With `bwrapPath`, the process also runs
 * inside bubblewrap (see buildToolProcessBwrapArgs): no network, no writes, gone when the runtime dies.
 * Resolves once it is ready.
 */
export async function startToolProcess(moduleUrls: readonly string[], heapMb: number, bwrapPath?: string): Promise<ToolProcess> {
  const entry = fileURLToPath(workerFileUrl('process-host.js'));
  const distDir = path.dirname(path.dirname(entry));
  const nodeFlags = [...permissionFlags(process.versions.node, collectReadPaths(distDir, moduleUrls)), `--max-old-space-size=${heapMb}`];
  const child = fork(entry, [], {
    // fork runs `execPath ...execArgv entry`: with bwrap as execPath, node and its flags go after bwrap's `--`.
    ...(bwrapPath === undefined ? { execArgv: nodeFlags } : { execPath: bwrapPath, execArgv: [...buildToolProcessBwrapArgs(), process.execPath, ...nodeFlags] }),
    env: {},
    cwd: path.parse(distDir).root,
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const output: string[] = [];
  const capture = (chunk: Buffer): void => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (output.length > OUTPUT_LINES_KEPT) output.splice(0, output.length - OUTPUT_LINES_KEPT);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  try {
    await new Promise<void>((resolve, reject) => {
      child.on('message', function onReady(message: unknown) {
        if (!isControl(message, 'ready')) return;
        child.off('message', onReady);
        resolve();
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`it exited with ${signal ?? `code ${code}`}`)));
    });
  } catch (error) {
    child.kill('SIGKILL');
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolwardenError('WORKER_CRASHED', `the isolated tool process did not start: ${reason}; its output: ${output.slice(-5).join(' | ') || 'none'}`);
  }
  child.removeAllListeners('error').removeAllListeners('exit');
  return { child, output };
}
