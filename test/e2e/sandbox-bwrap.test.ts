import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// The kernel enforces the boundary for what no parser can see: interpreters run under bwrap (sandbox 'required').
let rt: Runtime;
let ws: TempTree;
let other: TempTree;
let readRoot: TempTree;
let s: Session;

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
  ws = makeTempTree('tw-sbx-ws', { 'in.txt': 'inside\n', '.git/hooks/pre-commit.sample': '#!/bin/sh\n', '.git/HEAD': 'ref: refs/heads/main\n' });
  other = makeTempTree('tw-sbx-other', { 'secret.txt': 'TOP-SECRET\n' });
  readRoot = makeTempTree('tw-sbx-ro', { 'lib.txt': 'library\n' });
  s = await rt.openSession({ workspaceRoot: ws.root, readRoots: [readRoot.root], tools: ['bash'], sandbox: 'required' });
});
afterAll(async () => {
  await rt.close();
  for (const tree of [ws, other, readRoot]) tree.cleanup();
});

/** Runs an interpreter one-liner; returns stdout, stderr and the exit code. */
async function run(command: string): Promise<{ stdout: string; stderr: string; exitCode: number | null; text: string }> {
  const result = await s.call('bash', { command });
  // The command must have run: a refusal by the static check would prove nothing about the sandbox.
  expect(result.isError, textOf(result)).toBeFalsy();
  const sc = result.structuredContent ?? {};
  return { stdout: String(sc['stdout'] ?? ''), stderr: String(sc['stderr'] ?? ''), exitCode: (sc['exitCode'] as number | null) ?? null, text: textOf(result) };
}

const node = (code: string): string => `node -e ${JSON.stringify(code)}`;
const py = (code: string): string => `python3 -c ${JSON.stringify(code)}`;

describe('interpreters under bwrap', () => {
  it.each([
    ['node reads a secret in another temp dir', () => node(`process.stdout.write(require('fs').readFileSync(${JSON.stringify(other.at('secret.txt'))}, 'utf8'))`)],
    ['python3 reads a secret in another temp dir', () => py(`print(open(${JSON.stringify(other.at('secret.txt'))}).read())`)],
    ['node lists the other temp dir', () => node(`console.log(require('fs').readdirSync(${JSON.stringify(other.root)}))`)],
    ['python3 lists /root', () => py(`import os; print(os.listdir('/root'))`)],
  ])('%s: fails, nothing leaks', async (_name, command) => {
    const result = await run(command());
    expect(result.exitCode, result.text).not.toBe(0);
    expect(result.stdout).not.toContain('TOP-SECRET');
    expect(result.stdout).not.toContain('secret.txt');
  });

  it.each([
    ['node writes outside the workspace', () => node(`require('fs').writeFileSync(${JSON.stringify(other.at('planted.txt'))}, 'x')`), () => other.at('planted.txt')],
    ['python3 writes outside the workspace', () => py(`open(${JSON.stringify(other.at('planted-py.txt'))}, 'w').write('x')`), () => other.at('planted-py.txt')],
    ['node writes into a read root', () => node(`require('fs').writeFileSync(${JSON.stringify(readRoot.at('planted.txt'))}, 'x')`), () => readRoot.at('planted.txt')],
    ['python3 writes into .git/hooks', () => py(`open(${JSON.stringify(ws.at('.git/hooks/pre-commit'))}, 'w').write('evil')`), () => ws.at('.git/hooks/pre-commit')],
    ['node overwrites a hook sample', () => node(`require('fs').appendFileSync(${JSON.stringify(ws.at('.git/hooks/pre-commit.sample'))}, 'evil')`), () => 'SAMPLE'],
  ])('%s: fails, the host file is unchanged', async (_name, command, target) => {
    const result = await run(command());
    expect(result.exitCode, result.text).not.toBe(0);
    const path = target();
    if (path === 'SAMPLE') expect(fs.readFileSync(ws.at('.git/hooks/pre-commit.sample'), 'utf8')).toBe('#!/bin/sh\n');
    else expect(fs.existsSync(path)).toBe(false);
  });

  it('can read and write inside the workspace, and read a read root', async () => {
    const result = await run(
      node(`const fs = require('fs'); fs.writeFileSync('out.txt', fs.readFileSync('in.txt', 'utf8') + fs.readFileSync(${JSON.stringify(readRoot.at('lib.txt'))}, 'utf8')); console.log('ok')`),
    );
    expect(result.stdout, result.text).toBe('ok\n');
    expect(fs.readFileSync(ws.at('out.txt'), 'utf8')).toBe('inside\nlibrary\n');
    const pyResult = await run(py(`open('py.txt', 'w').write(open('in.txt').read().upper())`));
    expect(pyResult.exitCode, pyResult.text).toBe(0);
    expect(fs.readFileSync(ws.at('py.txt'), 'utf8')).toBe('INSIDE\n');
  });

  it('gives a private /tmp: a file written there does not reach the host /tmp', async () => {
    const name = `tw-sbx-private-${process.pid}-${Date.now()}`;
    const result = await run(node(`require('fs').writeFileSync('/tmp/${name}', 'x'); console.log('wrote')`));
    expect(result.stdout, result.text).toBe('wrote\n');
    expect(fs.existsSync(`/tmp/${name}`)).toBe(false);
  });

  it('hides host secrets under /etc', async () => {
    const result = await run(node(`try { process.stdout.write(require('fs').readFileSync('/etc/shadow', 'utf8')) } catch (e) { console.log(e.code) }`));
    expect(result.stdout, result.text).not.toContain('root:');
  });
});
