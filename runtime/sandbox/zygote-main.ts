/**
 * A session's sandbox zygote: this process runs inside the session's bubblewrap (its mounts, namespaces, seccomp
 * filter, no capabilities) and spawns each sandboxed command there on the runtime's request, so a command costs a
 * fork and an exec instead of a whole bwrap start. It speaks the launcher protocol in bounded frames over its stdin
 * (requests) and stdout (events); see src/protocol/zygote-frames.ts. Commands run as the same user in the same
 * namespaces and can tamper with it, so the runtime trusts nothing it says (runtime/sandbox/zygote.ts).
 *
 * When a command's leader exits, its group is killed, and so is every process that left the zygote's tree (its
 * parent is now the sandbox's init): nothing a command started outlives it. Its arguments are the private
 * directories to empty when no command runs.
 */
import { chmodSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createLauncherCore } from '../processes/launcher-core.js';
import { isLauncherRequest, type LauncherEvent } from '../../src/protocol/launcher.js';
import { encodeFrame, FrameDecoder } from '../../src/protocol/zygote-frames.js';
import { parseMountinfo } from '../../src/sandbox/mountinfo.js';
import { makeNonDumpable } from './non-dumpable.js';
import { createSysvIpcSweeper } from './sysv-ipc.js';

const REAP_WAIT_MS = 500;

function send(event: LauncherEvent): void {
  if (event.type === 'output') {
    const { data, ...header } = event;
    process.stdout.write(encodeFrame(header, data));
  } else process.stdout.write(encodeFrame(event));
}

/** Pids (in this pid namespace) whose parent is the sandbox's init, other than this zygote: orphans of commands. */
function orphans(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || pid === 1) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[1]) === 1) found.push(pid);
    } catch {
      // ended while we looked
    }
  }
  return found;
}

async function reapOrphans(): Promise<void> {
  const deadline = Date.now() + REAP_WAIT_MS;
  for (let left = orphans(); left.length > 0 && Date.now() < deadline; left = orphans()) {
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

// The private directories (/tmp, and HOME when it is a tmpfs of its own) each command would get fresh from a bwrap of
// its own: emptied whenever no command runs, so a command sees what an earlier one left only while both run. It runs
// after `closed` is sent, synchronously, so the runtime's next request is read only once it is done.
const privateDirs = process.argv.slice(2);

/** Mount points in this sandbox (its own mount namespace). */
function mountPoints(): string[] {
  return parseMountinfo(readFileSync('/proc/self/mountinfo', 'utf8')).map((mount) => mount.mountPoint);
}

// Read once: nothing in the sandbox may mount (no capabilities, the filter refuses the mount family), and a mount the
// host detaches later only makes the list skip more than it needs to.
const mounts = mountPoints();

// Only what lies on the private tmpfs itself: never an entry that is or holds a mount point (the workspace, a read
// root or HOME may be mounted below /tmp), so no removal reaches into the workspace.
function emptyPrivateDirs(): void {
  for (const dir of privateDirs) {
    let names: string[];
    let device: number;
    try {
      names = readdirSync(dir);
      device = lstatSync(dir).dev;
    } catch {
      continue;
    }
    for (const name of names) {
      const path = `${dir}/${name}`;
      if (mounts.some((mount) => mount === path || mount.startsWith(`${path}/`))) continue;
      try {
        if (lstatSync(path).dev !== device) continue;
        openUp(path, device);
        rmSync(path, { recursive: true, force: true });
      } catch {
        // a file it may not remove stays; the tmpfs cap still bounds it
      }
    }
  }
}

// Commands hold no capabilities, so a directory one left unreadable or unwritable (chmod 000, 0500) would stop the
// removal and hand its contents to the next command. Its owner may always chmod it: every directory on the private
// tmpfs (never a symlink's target, never another device) is made 0700 before the removal.
function openUp(path: string, device: number): void {
  const stat = lstatSync(path);
  if (!stat.isDirectory() || stat.dev !== device) return;
  chmodSync(path, 0o700);
  for (const name of readdirSync(path)) openUp(`${path}/${name}`, device);
}

// Set before `ready` is sent, so before any command runs (see the end of this file).
let sweepSysvIpc: () => void = () => undefined;

const core = createLauncherCore({
  send,
  afterExit: reapOrphans,
  afterClosed: (open) => {
    if (open === 0) {
      emptyPrivateDirs();
      sweepSysvIpc();
    }
  },
});
const decoder = new FrameDecoder();
// The rlimits it was started with (the per-command ones, which every command inherits).
const startLimits = readFileSync('/proc/self/limits', 'utf8');

function exitNow(code: number): never {
  core.killAll();
  process.exit(code);
}

process.stdin.on('data', (chunk: Buffer) => {
  let frames;
  try {
    frames = decoder.push(chunk);
  } catch {
    exitNow(2); // the runtime never breaks the framing: whoever wrote this is not the runtime
  }
  for (const { header, data } of frames) {
    const request = header !== null && typeof header === 'object' && (header as { type?: unknown }).type === 'stdin' ? { ...header, data } : header;
    if (!isLauncherRequest(request)) continue;
    // A command may lower this zygote's rlimits (prlimit on a process of its own user); every later command would
    // inherit them. Gone instead: that spawn is SANDBOX_LOST and the next command gets a fresh zygote with the limits.
    if (request.type === 'spawn' && readFileSync('/proc/self/limits', 'utf8') !== startLimits) exitNow(3);
    core.handle(request);
  }
});
process.stdin.on('end', () => exitNow(0));
process.stdin.on('error', () => exitNow(0));
process.stdout.on('error', () => exitNow(0));
process.on('SIGTERM', () => exitNow(0));
process.on('uncaughtException', (error) => {
  process.stderr.write(`toolwarden sandbox zygote: ${error.stack ?? error.message}\n`);
  exitNow(1);
});
// Before any command runs: a command of the same user could otherwise open /proc/<zygote>/mem. When sealing fails the
// zygote still serves; the self-test's zygote-memory-sealed probe fails and the runtime does not use it.
const unsealed = await makeNonDumpable();
if (unsealed !== undefined) process.stderr.write(`toolwarden sandbox zygote: not sealed: ${unsealed}\n`);
// Without koffi the zygote is not sealed either, so the self-test keeps the runtime from using it: each command then
// gets a bwrap, and an IPC namespace, of its own.
const sweeper = await createSysvIpcSweeper();
if (typeof sweeper === 'string') process.stderr.write(`toolwarden sandbox zygote: ${sweeper}\n`);
else sweepSysvIpc = sweeper;
send(unsealed === undefined ? { type: 'ready' } : { type: 'ready', unsealed });
