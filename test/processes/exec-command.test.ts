import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildChildEnv } from '../../src/child-env.js';
import { execCommand, type ExecOptions } from '../../runtime/processes/exec-command.js';
import { CHILD_ENV, SHELL, eventually, isAlive, livePidsInGroup } from './helpers.js';

const cwd = mkdtempSync(path.join(os.tmpdir(), 'tw-exec-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function run(command: string, extra: Partial<ExecOptions> = {}) {
  return execCommand({ command, cwd, env: CHILD_ENV, timeoutMs: 10_000, maxOutputChars: 10_000, encoding: 'utf-8', shell: SHELL, ...extra });
}

describe('execCommand', () => {
  it.each([
    ['exit code 0 and stdout', 'echo out', { exitCode: 0, stdout: 'out\n', stderr: '' }],
    ['non-zero exit code and stderr', 'echo err >&2; exit 7', { exitCode: 7, stdout: '', stderr: 'err\n' }],
    ['runs in cwd', 'pwd', { exitCode: 0, stdout: `${cwd}\n` }],
    ['stdin is empty, so cat ends', 'cat; echo done', { exitCode: 0, stdout: 'done\n' }],
    ['signal reported when the shell is killed', 'kill -TERM $$', { exitCode: null, signal: 'SIGTERM' }],
  ])('%s', async (_name, command, expected) => {
    expect(await run(command)).toMatchObject({ timedOut: false, aborted: false, ...expected });
  });

  it.each([
    ['GBK bytes in one chunk', "printf '\\xd6\\xd0\\xce\\xc4'"],
    ['a GBK character split across two chunks', "printf '\\xd6'; sleep 0.05; printf '\\xd0\\xce\\xc4'"],
  ])('decodes %s with encoding gbk', async (_name, command) => {
    const outcome = await run(`${command}; ${command.replaceAll('printf', 'printf >&2')}`, { encoding: 'gbk' });
    expect(outcome.stdout).toBe('中文');
    expect(outcome.stderr).toBe('中文');
  });

  it('kills the whole process tree on timeout', async () => {
    const outcome = await run('sleep 60 & echo $!; sleep 60; wait', { timeoutMs: 400 });
    expect(outcome).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    const background = Number(outcome.stdout.trim());
    expect(background).toBeGreaterThan(0);
    expect(await eventually(() => !isAlive(background))).toBe(true);
  });

  it('kills what the shell left running when it exits', async () => {
    const outcome = await run('sleep 60 & echo $!');
    const background = Number(outcome.stdout.trim());
    expect(outcome.exitCode).toBe(0);
    expect(await eventually(() => !isAlive(background) && livePidsInGroup(background).length === 0)).toBe(true);
  });

  it('kills the tree when aborted', async () => {
    const controller = new AbortController();
    const pending = run('sleep 60 & echo $!; sleep 60', { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const outcome = await pending;
    expect(outcome).toMatchObject({ aborted: true, timedOut: false, signal: 'SIGKILL' });
    expect(await eventually(() => !isAlive(Number(outcome.stdout.trim())))).toBe(true);
  });

  it('cuts output past maxOutputChars and counts what it dropped, never half a surrogate pair', async () => {
    const outcome = await run("printf 'ab\\360\\237\\230\\200cd'; printf 'xyz' >&2", { maxOutputChars: 3 });
    expect(outcome.stdout).toBe('ab');
    expect(outcome.stdoutDropped).toBe(4);
    expect(outcome).toMatchObject({ stderr: 'xyz', stderrDropped: 0 });
  });

  it('does not pass host variables outside the allowlist', async () => {
    process.env['TOOLWARDEN_TEST_SECRET'] = 's3cret';
    try {
      const command = 'printf %s "${TOOLWARDEN_TEST_SECRET-unset}"; env | grep -c s3cret';
      expect((await run(command)).stdout).toBe('unset0\n');
      const allowed = buildChildEnv(process.env, ['TOOLWARDEN_TEST_*']);
      expect((await run(command, { env: allowed })).stdout).toBe('s3cret1\n');
    } finally {
      delete process.env['TOOLWARDEN_TEST_SECRET'];
    }
  });

  it('passes the argv through the wrapper', async () => {
    const outcome = await run('echo inner', { wrap: (argv) => ['env', 'WRAPPED=yes', ...argv.slice(0, -1), 'echo $WRAPPED'] });
    expect(outcome.stdout).toBe('yes\n');
  });

  it.each([
    ['a zero timeout', { timeoutMs: 0 }],
    ['a negative output cap', { maxOutputChars: -1 }],
  ])('fails with INVALID_ARGS for %s', async (_name, extra) => {
    await expect(run('echo hi', extra)).rejects.toMatchObject({ code: 'INVALID_ARGS' });
  });

  it.each([
    ['a missing cwd', { cwd: path.join(cwd, 'missing') }],
    ['a missing shell', { shell: { file: 'no-such-shell-tw', args: (c: string) => ['-c', c] } }],
  ])('fails with SPAWN_FAILED for %s', async (_name, extra) => {
    await expect(run('echo hi', extra)).rejects.toMatchObject({ code: 'SPAWN_FAILED' });
  });
});
