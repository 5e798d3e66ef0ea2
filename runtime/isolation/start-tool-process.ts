import { fork, type ChildProcess, type StdioOptions } from 'node:child_process';
import { closeSync, openSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolwardenError } from '../../src/errors.js';
import { workerFileUrl } from '../tool-hosts/worker-url.js';
import { permissionFlags } from './permission-flags.js';
import { isHostState } from '../../src/protocol/worker-bind.js';
import { collectReadPaths } from './read-allowlist.js';
import { buildToolProcessBwrapArgs } from '../../src/sandbox/tool-process-args.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import type { SandboxFeatures } from '../../src/sandbox/types.js';
import { hostSandboxSys } from '../sandbox/host-sys.js';
import { seccompFilterPath } from '../sandbox/seccomp-file.js';

/** The bubblewrap an isolated tool process runs inside: where bwrap is and what it can do on this host. */
export interface ToolProcessSandbox {
  readonly bwrapPath: string;
  readonly features: SandboxFeatures;
}

/** The bwrap argv prefix of a tool process (ending in `--`) and the seccomp filter file to open on SECCOMP_FD. */
export interface ToolProcessBwrap {
  readonly argv: string[];
  readonly filter: string | undefined;
}

/**
 * bwrap and its layout for a tool process that reads `readPaths` (the Node executable is added): see
 * buildToolProcessBwrapArgs. With `features.seccomp`, the caller opens `filter` on SECCOMP_FD for bwrap.
 */
export function toolProcessBwrap(sandbox: ToolProcessSandbox, readPaths: readonly string[]): ToolProcessBwrap {
  const filter = sandbox.features.seccomp === true ? seccompFilterPath() : undefined;
  const features: SandboxFeatures = { ...sandbox.features, seccomp: filter !== undefined };
  const layout = { readPaths: [...readPaths, realpathSync(process.execPath)], tmpBytes: DEFAULT_LIMITS.sandboxTmpBytes };
  return { argv: [sandbox.bwrapPath, ...buildToolProcessBwrapArgs(layout, hostSandboxSys, features)], filter };
}

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
 * and explicit Node flags (never the host's execArgv or NODE_OPTIONS). With `sandbox`, the process also runs
 * inside bubblewrap (see toolProcessBwrap): only what it reads visible, nothing writable but a bounded /tmp, no
 * network, the kernel hardening commands get, gone when the runtime dies. Resolves once it is ready.
 */
export async function startToolProcess(moduleUrls: readonly string[], heapMb: number, sandbox?: ToolProcessSandbox): Promise<ToolProcess> {
  const entry = fileURLToPath(workerFileUrl('process-host'));
  const distDir = path.dirname(path.dirname(entry));
  const readPaths = collectReadPaths(distDir, moduleUrls);
  const nodeFlags = [...permissionFlags(process.versions.node, readPaths), `--max-old-space-size=${heapMb}`];
  const bwrap = sandbox === undefined ? undefined : toolProcessBwrap(sandbox, readPaths);
  // bwrap reads the filter from SECCOMP_FD (3), so the IPC channel moves to fd 4 (fork tells the child where).
  const filterFd = bwrap?.filter === undefined ? undefined : openSync(bwrap.filter, 'r');
  const stdio: StdioOptions = filterFd === undefined ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe', filterFd, 'ipc'];
  let child: ChildProcess;
  try {
    const [bwrapPath = '', ...bwrapArgs] = bwrap?.argv ?? [];
    child = fork(entry, [], {
      // fork runs `execPath ...execArgv entry`: with bwrap as execPath, node and its flags go after bwrap's `--`.
      ...(bwrap === undefined ? { execArgv: nodeFlags } : { execPath: bwrapPath, execArgv: [...bwrapArgs, process.execPath, ...nodeFlags] }),
      env: {},
      cwd: path.parse(distDir).root,
      serialization: 'advanced',
      stdio,
    });
  } finally {
    if (filterFd !== undefined) closeSync(filterFd);
  }
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
        if (!isHostState(message, 'ready')) return;
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
