import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// A process of the same user (and, when the tests run as root, both as nobody: root holds CAP_SYS_PTRACE) tries to
// open the memory of a node process that did and one that did not call makeNonDumpable.
const MODULE = fileURLToPath(new URL('../../dist/runtime/sandbox/non-dumpable.js', import.meta.url));
const asUser = (argv: string[]): string[] => (process.getuid?.() === 0 ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', ...argv] : argv);
const holder = (seal: boolean): string =>
  `${seal ? `const { makeNonDumpable } = await import(${JSON.stringify(MODULE)}); console.log((await makeNonDumpable()) ?? 'sealed');` : "console.log('plain');"} setInterval(() => {}, 1000);`;
const probe = (pid: number): string =>
  `const fs = require('fs'); for (const path of ['/proc/${pid}/mem', '/proc/${pid}/environ']) { try { fs.closeSync(fs.openSync(path, 'r')); console.log('opened'); } catch (error) { console.log(error.code); } }`;

let running: ChildProcess | undefined;
afterEach(() => {
  running?.kill('SIGKILL');
  running = undefined;
});

async function openFrom(seal: boolean): Promise<{ said: string; probed: string }> {
  const [file = '', ...args] = asUser([process.execPath, '--input-type=module', '-e', holder(seal)]);
  running = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const [said] = (await once(running.stdout!, 'data')) as [Buffer];
  // setpriv execs node in place: the pid spawned is the holder's.
  const pid = running.pid ?? 0;
  const [pfile = '', ...pargs] = asUser([process.execPath, '-e', probe(pid)]);
  const probed = await new Promise<string>((resolve, reject) => execFile(pfile, pargs, (error, out) => (error ? reject(error) : resolve(out))));
  return { said: said.toString().trim(), probed: probed.trim() };
}

describe.runIf(process.platform === 'linux')('makeNonDumpable', () => {
  it('closes the process\'s /proc files to a process of the same user', async () => {
    const { said, probed } = await openFrom(true);
    expect(said).toBe('sealed');
    expect(probed.split('\n')).toEqual(['EACCES', 'EACCES']);
  });

  it('near miss: a process that did not call it stays open to its user', async () => {
    const { said, probed } = await openFrom(false);
    expect(said).toBe('plain');
    expect(probed.split('\n')).toEqual(['opened', 'opened']);
  });
});
