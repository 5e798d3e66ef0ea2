import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { describeProcess, eventually, isAlive } from './helpers.js';

// The host runs the compiled build, as an application would (build first: npx tsc -p tsconfig.json).
const registryUrl = new URL('../../dist/runtime/processes/index.js', import.meta.url).href;

const HOST = `
const { ProcessRegistry, resolveShell } = await import(${JSON.stringify(registryUrl)});
const registry = new ProcessRegistry({ maxProcesses: 2, maxOutputChars: 1000, stopGraceMs: 100, encoding: 'utf-8',
  shell: resolveShell(process.platform), env: { PATH: process.env.PATH } });
const { processId, pid } = await registry.start('sleep 60 & echo $!; sleep 60', process.cwd());
let background = '';
while (!(background = registry.logs(processId).text).includes('\\n')) await new Promise((r) => setTimeout(r, 10));
console.log(JSON.stringify({ leader: pid, background: Number(background.trim()) }));
process.stdin.once('data', () => process.exit(0));
`;

describe.runIf(process.platform === 'linux')('background processes end with the host', () => {
  it.each([
    ['calls process.exit() (the exit hook kills its groups)', 'exit'],
    ['is SIGKILLed (the launcher kills its groups on disconnect)', 'kill'],
  ])('when the host %s', async (_name, mode) => {
    const host = spawn(process.execPath, ['--input-type=module', '-e', HOST], { stdio: ['pipe', 'pipe', 'inherit'] });
    const [line] = (await once(createInterface({ input: host.stdout }), 'line')) as [string];
    const { leader, background } = JSON.parse(line) as { leader: number; background: number };
    const launcher = describeProcess(leader).ppid;
    expect([leader, background, launcher].every(isAlive)).toBe(true);
    expect(launcher).not.toBe(host.pid);
    if (mode === 'kill') host.kill('SIGKILL');
    else host.stdin.write('exit now\n');
    await once(host, 'exit');
    expect(await eventually(() => ![leader, background, launcher].some(isAlive))).toBe(true);
  });
});
