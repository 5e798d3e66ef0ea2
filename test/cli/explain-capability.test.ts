import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

async function runHere(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const exitCode = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { exitCode, stdout, stderr };
}

let dir: TempTree;
beforeAll(() => {
  dir = makeTempTree('tw-explain-cap', { 'ws/a.txt': 'a\n' });
  dir.write({
    'config.json': JSON.stringify({
      mcpServers: { tracker: { command: 'node', args: ['tracker.mjs'] } },
      permissions: { read_file: { ask: ['secrets/**'] } },
      tenants: {
        alice: { workspaceRoot: 'ws', tools: ['read_file', 'grep'], mcpServers: ['tracker:list_*'] },
        bob: { workspaceRoot: 'ws' },
      },
    }),
  });
});
afterAll(() => dir.cleanup());

const explainJson = async (...args: string[]) => {
  const result = await runHere(['explain', '--config', dir.at('config.json'), '--json', ...args]);
  return { ...result, json: result.exitCode === 0 ? (JSON.parse(result.stdout) as Record<string, unknown>) : undefined };
};

describe('explain refuses a tool the capability lacks, as a call is refused (TOOL_NOT_ALLOWED)', () => {
  it.each([
    ['a tool that exists nowhere', ['--tool', 'nosuch', '--args', '{}']],
    ['a misspelled tool', ['--tool', 'read_fil', '--args', '{"path":"a.txt"}']],
    ['a tool of an MCP server the config does not have', ['--tool', 'mcp__jira__create', '--args', '{}']],
    ['a built-in tool --tools leaves out', ['--tool', 'bash', '--args', '{"command":"ls"}', '--tools', 'read_file']],
    ["a built-in tool the user's tenant does not have", ['--tool', 'bash', '--args', '{"command":"ls"}', '--user', 'alice']],
    ['any tool for a user whose tenant names none', ['--tool', 'read_file', '--args', '{"path":"a.txt"}', '--user', 'bob']],
    ["an MCP tool outside the user's entries", ['--tool', 'mcp__tracker__create_issue', '--args', '{}', '--user', 'alice']],
    ['an MCP tool --mcp leaves out', ['--tool', 'mcp__tracker__create_issue', '--args', '{}', '--mcp', 'tracker:list_*']],
  ])('%s', async (_name, args) => {
    const { exitCode, json } = await explainJson(...args);
    expect(exitCode).toBe(0);
    expect(json).toMatchObject({ decision: 'deny', rule: 'capability', refusedBeforeRules: { code: 'TOOL_NOT_ALLOWED', message: expect.stringContaining("is not in this session's capability") } });
  });

  it.each([
    ['a built-in tool, with no capability flags', ['--tool', 'read_file', '--args', '{"path":"secrets/k"}'], 'ask'],
    ['a built-in tool --tools names', ['--tool', 'read_file', '--args', '{"path":"secrets/k"}', '--tools', 'read_file'], 'ask'],
    ["a tool of the user's tenant", ['--tool', 'read_file', '--args', '{"path":"a.txt"}', '--user', 'alice'], 'allow'],
    ["an MCP tool the user's entries allow", ['--tool', 'mcp__tracker__list_issues', '--args', '{}', '--user', 'alice'], 'allow'],
    ['an MCP tool of a configured server, with no capability flags', ['--tool', 'mcp__tracker__create_issue', '--args', '{}'], 'allow'],
  ])('near miss: %s is decided by the rules', async (_name, args, decision) => {
    const { exitCode, json } = await explainJson(...args);
    expect(exitCode).toBe(0);
    expect(json).toMatchObject({ decision });
    expect(json).not.toHaveProperty('refusedBeforeRules');
  });

  it('says so in text, with the closest tool the capability has', async () => {
    const result = await runHere(['explain', '--tool', 'read_fil', '--args', '{"path":"a.txt"}', '--config', dir.at('config.json'), '--user', 'alice']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `read_fil {"path":"a.txt"} -> deny\n  refused by the capability: TOOL_NOT_ALLOWED: tool 'read_fil' is not in this session's capability (allowed: read_file, grep, MCP tracker:list_*); did you mean 'read_file'?\n`,
    );
  });

  it('notes when no flag said which tools the session has', async () => {
    const { json } = await explainJson('--tool', 'read_file', '--args', '{"path":"a.txt"}');
    expect(json?.['notes']).toEqual([expect.stringMatching(/^capability: every built-in tool and MCP server/)]);
  });

  it.each([
    ["--tools beyond the user's tenant", ['--tool', 'bash', '--args', '{}', '--user', 'alice', '--tools', 'read_file,bash'], /^toolwarden explain: ESCALATION: user 'alice' asked for tools bash beyond the tenant's allowance/],
    ['--mcp naming a server the config does not have', ['--tool', 'bash', '--args', '{}', '--mcp', 'jira'], /^toolwarden explain: INVALID_OPTIONS: mcpServers entry 'jira' names unknown MCP server 'jira'/],
    ['--user naming no tenant', ['--tool', 'bash', '--args', '{}', '--user', 'alcie'], /^toolwarden explain: INVALID_OPTIONS: user 'alcie' has no entry in the config's tenants; did you mean 'alice'\?/],
    ['--user naming a property every object has', ['--tool', 'bash', '--args', '{}', '--user', 'constructor'], /^toolwarden explain: INVALID_OPTIONS: user 'constructor' has no entry/],
    ['--user __proto__', ['--tool', 'bash', '--args', '{}', '--user', '__proto__'], /^toolwarden explain: INVALID_OPTIONS: user '__proto__' has no entry/],
  ])('fails as opening that session would: %s', async (_name, args, message) => {
    const result = await runHere(['explain', '--config', dir.at('config.json'), ...args]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
