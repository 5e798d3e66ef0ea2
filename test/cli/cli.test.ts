import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const run = (args: string[]) => execa(process.execPath, [MAIN, ...args], { reject: false, input: '' });

/** runCli in this process, with its output captured (execa strips one trailing newline; so does this). */
async function runHere(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const exitCode = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { exitCode, stdout: stdout.replace(/\n$/, ''), stderr: stderr.replace(/\n$/, '') };
}

describe('toolwarden demo', () => {
  it('exits 0, prints allowed and refused rows side by side, and removes its workspace', async () => {
    const result = await run(['demo']);
    expect(result.exitCode).toBe(0);
    const rows = result.stdout.split('\n');
    const row = (call: string) => rows.find((line) => line.startsWith(call)) ?? `(no row for ${call})`;
    expect(row('read_file src/greet.ts')).toMatch(/\ballowed\b/);
    expect(row('bash: ls')).toMatch(/\ballowed\b/);
    for (const [call, code] of [
      ['read_file ../', 'NOT_READABLE'],
      ['read_file link-to-outside', 'NOT_READABLE'],
      ['write_file .git/hooks/pre-commit', 'BLOCKED_PATH'],
      ['web_fetch', 'TOOL_NOT_ALLOWED'],
      ['bash: cat /etc/passwd', 'NOT_READABLE'],
      ['openSession with a tampered token', 'TOKEN_INVALID'],
      ['child of [read_file] asks for bash', 'ESCALATION'],
    ]) {
      expect(row(call!)).toMatch(new RegExp(`\\brefused\\s+${code}:`));
    }
    expect(row('bash: rm -rf /')).toMatch(/\brefused\b/);
    expect(row('write_file src/notes.md')).toMatch(/\bapproved\s+asked \(write_file asks by session rule/);
    expect(result.stdout.replace(/\s+/g, ' ')).toMatch(/asked \(write_file asks by session rule write_file\.ask 'src\/\*\*' \(for 'src\/notes\.md'\)\); the approver answered allow: Created src\/notes\.md/);
    expect(row('bash: rm -rf * (dangerous removal)')).toMatch(/\brefused\s+APPROVAL_DENIED: /);
    expect(result.stdout).toMatch(/\d+ allowed, 1 approved, \d+ refused\./);
    const root = /<workspace> is (\S+),/.exec(rows[0] ?? '')?.[1];
    expect(root).toBeDefined();
    expect(fs.existsSync(root!)).toBe(false);
  });

  it('prints every reason in full, wrapped to the width, never cut', async () => {
    const result = await run(['demo']);
    const lines = result.stdout.split('\n');
    const table = lines.slice(lines.findIndex((line) => line.startsWith('CALL')), lines.findIndex((line, i) => i > 4 && line === ''));
    expect(table.length).toBeGreaterThan(15);
    // Not a terminal: 100 columns. A row's label and outcome may not fit a narrow terminal, but its reason wraps.
    expect(table.filter((line) => line.length > 100)).toEqual([]);
    expect(result.stdout).not.toContain('…');
    // The dangerous removal's whole reason, across its wrapped lines.
    expect(result.stdout.replace(/\s+/g, ' ')).toMatch(/APPROVAL_DENIED: .*dangerous removal of \*: \* empties <workspace>: <workspace> is the workspace root.* the approver answered "deny"/);
  });

  it('prints the rows as JSON with --json: each call, its outcome, its full reason and the approver answer', async () => {
    const result = await run(['demo', '--json']);
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout) as { rows: { call: string; outcome: string; detail: string; approval?: { answer: string } }[]; summary: Record<string, number> };
    const byCall = (prefix: string) => report.rows.find((r) => r.call.startsWith(prefix));
    expect(byCall('write_file src/notes.md')).toMatchObject({ outcome: 'approved', approval: { answer: 'allow' } });
    expect(byCall('bash: rm -rf *')).toMatchObject({ outcome: 'refused', detail: expect.stringMatching(/^APPROVAL_DENIED: /), approval: { answer: 'deny' } });
    expect(byCall('read_file ../../etc/hostname')).toMatchObject({ outcome: 'refused', detail: expect.stringMatching(/^NOT_READABLE: /) });
    expect(report.summary).toEqual({ allowed: expect.any(Number), approved: 1, refused: report.rows.filter((r) => r.outcome === 'refused').length });
  });
});

describe('toolwarden --version', () => {
  const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  it.each([['--version'], ['-v']])('%s prints package.json version and exits 0', async (flag) => {
    const result = await run([flag]);
    expect(result).toMatchObject({ exitCode: 0, stdout: version, stderr: '' });
  });
});

describe('toolwarden demo without bubblewrap', () => {
  let bin: TempTree;
  beforeAll(() => {
    // A PATH with the shell and the few programs the demo runs, but no bwrap.
    bin = makeTempTree('tw-demo-bin');
    for (const program of ['bash', 'sh', 'ls', 'cat', 'rm', 'env']) {
      const found = (process.env['PATH'] ?? '').split(path.delimiter).map((d) => path.join(d, program)).find((p) => fs.existsSync(p));
      if (found) fs.symlinkSync(found, bin.at(program));
    }
  });
  afterAll(() => bin.cleanup());

  it('still exits 0, runs bash unsandboxed and says so once', async () => {
    const result = await execa(process.execPath, [MAIN, 'demo'], { reject: false, env: { PATH: bin.root }, extendEnv: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^bash: ls\s+allowed\s+README\.md$/m);
    expect(result.stdout).toMatch(/^bash: cat \/etc\/passwd\s+refused\s+NOT_READABLE/m);
    expect(result.stdout.match(/^note: OS sandbox unavailable/gm)).toHaveLength(1);
  });
});

describe('usage', () => {
  it.each([
    ['an unknown command', ['deploy'], /unknown command 'deploy'/],
    ['no command', [], /Usage: toolwarden <command>/],
    ['an unknown flag', ['demo', '--fast'], /Unknown option '--fast'/],
    ['explain without --args', ['explain', '--tool', 'bash'], /--tool and --args are required/],
    ['explain with args that are not JSON', ['explain', '--tool', 'bash', '--args', '{command'], /--args is not JSON/],
    ['a bad --sandbox', ['explain', '--tool', 'bash', '--args', '{}', '--sandbox', 'on'], /--sandbox must be one of auto, required, off/],
    ['serve --http without a config', ['serve', '--http'], /--config FILE is required/],
    ['a bad --port', ['serve', '--http', '--port', 'eighty'], /--port must be an integer/],
  ])('prints the usage on stderr and exits 2 for %s', async (_name, args, message) => {
    const result = await runHere(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Usage:');
    expect(result.stdout).toBe('');
  });

  it('exits 2 from a real process for an unknown command', async () => {
    const result = await run(['deploy']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^toolwarden: unknown command 'deploy'/);
  });

  it.each([['--help'], ['demo'], ['explain'], ['serve']])('prints help for %s and exits 0', async (command) => {
    const result = await runHere(command === '--help' ? ['--help'] : [command, '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage:/);
  });
});

describe('toolwarden explain', () => {
  let dir: TempTree;
  beforeAll(() => {
    dir = makeTempTree('tw-explain', { 'ws/src/a.ts': '' });
    dir.write({
      'config.json': JSON.stringify({
        permissions: { bash: { deny: ['git push*'] }, read_file: { ask: ['secrets/**'] } },
        tenants: { alice: { workspaceRoot: 'ws', tools: ['read_file', 'bash'], permissions: { bash: { ask: ['npm *'] } } } },
      }),
      'bad.json': JSON.stringify({ tenants: { alice: { maxSessions: -1 } } }),
      'typo.json': JSON.stringify({ permissions: { bsh: 'deny' } }),
    });
  });
  afterAll(() => dir.cleanup());

  it.each([
    ['a host deny rule', ['--tool', 'bash', '--args', '{"command":"git push origin"}'], /-> deny\n\s+decided by: host rule bash\.deny 'git push\*'/],
    ['a host ask rule on a path', ['--tool', 'read_file', '--args', '{"path":"secrets/key"}'], /-> ask\n\s+decided by: host rule read_file\.ask 'secrets\/\*\*'/],
    ['a user\'s session rule', ['--tool', 'bash', '--args', '{"command":"npm test && ls"}', '--user', 'alice'], /-> ask\n\s+decided by: session rule bash\.ask 'npm \*' \(command 'npm test'\)/],
    ['the path guard in the user\'s workspace', ['--tool', 'read_file', '--args', '{"path":"../config.json"}', '--user', 'alice'], /-> deny\n\s+refused before any rule: NOT_READABLE/],
    ['a dangerous removal', ['--tool', 'bash', '--args', '{"command":"rm -rf ."}', '--user', 'alice', '--sandbox', 'off'], /-> ask[\s\S]*dangerous: always asks[\s\S]*approver options: allow, deny\n/],
    ['no matching rule', ['--tool', 'read_file', '--args', '{"path":"src/a.ts"}'], /-> allow\n/],
    ['each command by its own static verdict', ['--tool', 'bash', '--args', `{"command":"trap 'rm -f x' EXIT; echo ready"}`, '--user', 'alice', '--sandbox', 'off'], /-> ask\n\s+decided by: default for bash: static check 'ask' \('rm -f x': trap runs a command string later, which is not checked\) \(command 'trap 'rm -f x' EXIT'\)\n[\s\S]*command 'echo ready': allow by default for bash: static check 'allow'\n/],
    ['a command that does not parse', ['--tool', 'bash', '--args', '{"command":"echo \\"unterminated"}', '--user', 'alice', '--sandbox', 'off'], /-> ask\n\s+decided by: static check asks for the whole call \(the command does not parse cleanly[\s\S]*approver options: allow, deny\n/],
  ])('explains %s', async (_name, args, expected) => {
    const result = await runHere(['explain', ...args, '--config', dir.at('config.json')]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(expected);
  });

  it.each([
    ['a host deny rule', ['--tool', 'bash', '--args', '{"command":"git push origin"}'], { tool: 'bash', decision: 'deny', rule: "host rule bash.deny 'git push*'", args: { command: 'git push origin' } }],
    ['a dangerous removal', ['--tool', 'bash', '--args', '{"command":"rm -rf ."}', '--user', 'alice', '--sandbox', 'off'], { decision: 'ask', options: ['allow', 'deny'], subject: { dangerous: true } }],
    ['a refusal before any rule', ['--tool', 'read_file', '--args', '{"path":"../config.json"}', '--user', 'alice'], { decision: 'deny', refusedBeforeRules: { code: 'NOT_READABLE' } }],
  ])('prints %s as JSON with --json', async (_name, args, expected) => {
    const result = await runHere(['explain', ...args, '--config', dir.at('config.json'), '--json']);
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject(expected);
    expect(parsed).not.toHaveProperty('text');
  });

  it('fails naming a rule for a tool that does not exist', async () => {
    const result = await run(['explain', '--tool', 'bash', '--args', '{}', '--config', dir.at('typo.json')]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/INVALID_OPTIONS: .*permissions has a rule for 'bsh'.*did you mean 'bash'/);
  });

  it('fails with the file and the field for a bad config', async () => {
    const result = await run(['explain', '--tool', 'bash', '--args', '{}', '--config', dir.at('bad.json')]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`toolwarden explain: INVALID_OPTIONS: config file ${path.join(dir.root, 'bad.json')}: tenants.alice.maxSessions must be a positive integer`);
  });
});
