import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

async function runHere(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const exitCode = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { exitCode, stdout, stderr };
}

// Every usage error of every command: the first line is `toolwarden <command>: <message>`, once, then the usage.
const USAGE_ERRORS: [string, string[], RegExp][] = [
  ['demo: an unknown flag', ['demo', '--fast'], /^Unknown option '--fast'; options: --help, --json$/],
  ['demo: a misspelled flag', ['demo', '--jsn'], /^Unknown option '--jsn'; did you mean '--json'\?$/],
  ['doctor: a misspelled flag', ['doctor', '--jason'], /^Unknown option '--jason'; did you mean '--json'\?$/],
  ['explain: no --args', ['explain', '--tool', 'bash'], /^--tool and --args are required$/],
  ['explain: args that are not JSON', ['explain', '--tool', 'bash', '--args', '{command'], /^--args is not JSON: /],
  ['explain: args that are an array', ['explain', '--tool', 'bash', '--args', '[]'], /^--args must be a JSON object/],
  ['explain: a bad --sandbox', ['explain', '--tool', 'bash', '--args', '{}', '--sandbox', 'on'], /^--sandbox must be one of auto, required, off, got 'on'$/],
  ['explain: a misspelled --sandbox', ['explain', '--tool', 'bash', '--args', '{}', '--sandbox', 'requierd'], /^--sandbox must be one of auto, required, off, got 'requierd'; did you mean 'required'\?$/],
  ['explain: a misspelled flag', ['explain', '--tol', 'bash', '--args', '{}'], /^Unknown option '--tol'; did you mean '--tool'\?$/],
  ['keys: no subcommand', ['keys'], /^the only subcommand is 'generate': none was given$/],
  ['keys: a misspelled subcommand', ['keys', 'genrate'], /^the only subcommand is 'generate': got 'genrate'; did you mean 'generate'\?$/],
  ['keys: no --out', ['keys', 'generate'], /^--out DIR is required/],
  ['mint: no --private-key', ['mint', '--config', 'x'], /^--private-key is required$/],
  ['mint: a bad --ttl', ['mint', '--config', 'x', '--private-key', 'y', '--user', 'u', '--ttl', '0'], /^--ttl must be a positive whole number of seconds, got '0'$/],
  ['serve: a misspelled flag', ['serve', '--workspce', '.'], /^Unknown option '--workspce'; did you mean '--workspace'\?$/],
  ['serve: a flag with a dash too few', ['serve', '--shutdown-grace', '5'], /^Unknown option '--shutdown-grace'; did you mean '--shutdown-grace-ms'\?$/],
  ['serve: no workspace', ['serve', '--tools', 'read_file'], /^--workspace DIR is required/],
  ['serve: --http without a config', ['serve', '--http'], /^--config FILE is required with --http/],
  ['serve: a bad --port', ['serve', '--http', '--port', 'eighty'], /^--port must be an integer from 0 to 65535, got 'eighty'$/],
  ['serve: a port past the range', ['serve', '--http', '--port', '65536'], /^--port must be an integer from 0 to 65535/],
  ['serve: an HTTP flag without --http', ['serve', '--workspace', '.', '--port', '1'], /^--port is only for HTTP serving \(--http\)$/],
  ['serve: a stdio flag with --http', ['serve', '--http', '--tools', 'read_file'], /^--tools is only for stdio serving/],
  ['serve: --shutdown-grace-ms without --http', ['serve', '--workspace', '.', '--shutdown-grace-ms', '0'], /^--shutdown-grace-ms is only for HTTP serving \(--http\)$/],
  ['serve: a negative --shutdown-grace-ms', ['serve', '--http', '--shutdown-grace-ms=-1'], /^--shutdown-grace-ms must be an integer from 0 to 3600000, got '-1'$/],
  ['serve: a fractional --shutdown-grace-ms', ['serve', '--http', '--shutdown-grace-ms', '1.5'], /^--shutdown-grace-ms must be an integer from 0 to 3600000/],
  ['serve: --shutdown-grace-ms past an hour', ['serve', '--http', '--shutdown-grace-ms', '3600001'], /^--shutdown-grace-ms must be an integer from 0 to 3600000/],
];

describe('usage errors: one prefix, the message, the usage', () => {
  it.each(USAGE_ERRORS)('%s', async (_name, args, message) => {
    const result = await runHere(args);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const [first = '', blank, usage] = result.stderr.split('\n');
    const prefix = `toolwarden ${args[0]}: `;
    expect(first.startsWith(prefix), first).toBe(true);
    expect(first.slice(prefix.length)).toMatch(message);
    expect(first.slice(prefix.length)).not.toMatch(/toolwarden/);
    expect([blank, usage]).toEqual(['', expect.stringMatching(/^Usage:/)]);
  });
});

describe('unknown commands', () => {
  it.each([
    ['sevre', "toolwarden: unknown command 'sevre'; did you mean 'serve'?"],
    ['explian', "toolwarden: unknown command 'explian'; did you mean 'explain'?"],
    ['deploy', "toolwarden: unknown command 'deploy'"],
  ])('%s', async (command, line) => {
    const result = await runHere([command]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(line);
  });
});

describe('failures that are not usage: `toolwarden <command>: CODE: message`, no usage, exit 1', () => {
  it.each([
    ['explain: a config that cannot be read', ['explain', '--tool', 'bash', '--args', '{}', '--config', '/nonexistent/tw-config.json'], /^INVALID_OPTIONS: config file \/nonexistent\/tw-config\.json cannot be read: /],
    ['explain: a misspelled tool in --tools', ['explain', '--tool', 'bash', '--args', '{}', '--tools', 'bash,read_fil'], /^INVALID_OPTIONS: unknown tool 'read_fil' in --tools; did you mean 'read_file'\?; known: /],
    ['mint: a misspelled tool', ['mint', '--config', 'x', '--private-key', 'y', '--user', 'u', '--tools', 'gerp'], /^INVALID_OPTIONS: unknown tool 'gerp' in --tools; did you mean 'grep'\?/],
    ['serve: a misspelled tool', ['serve', '--workspace', '.', '--tools', 'read_file,wirte_file'], /^INVALID_OPTIONS: unknown tool 'wirte_file' in --tools; did you mean 'write_file'\?/],
  ])('%s', async (_name, args, message) => {
    const result = await runHere(args);
    expect(result.exitCode).toBe(1);
    const prefix = `toolwarden ${args[0]}: `;
    expect(result.stderr.startsWith(prefix), result.stderr).toBe(true);
    expect(result.stderr.slice(prefix.length)).toMatch(message);
    expect(result.stderr).not.toContain('Usage:');
  });
});
