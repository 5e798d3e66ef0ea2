import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { claudeAgentMcpServer } from '../../runtime/adapters/claude-agent.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { missingPayload, openPayloadFixture, PAYLOAD_FILES, payloadCases, type PayloadCase, type PayloadFixture } from './payload-cases.js';
import { startScriptedMessagesApi, type ScriptedBlock, type ScriptedMessagesApi } from './scripted-messages-api.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** A model turn's tool call, and the case it stands for (undefined for the refusal). */
interface Planned {
  id: string;
  name: string;
  input: Record<string, unknown>;
  expected?: PayloadCase;
}

let fx: PayloadFixture;
let api: ScriptedMessagesApi;
let home: TempTree;
let served: TempTree;
const plan: Planned[] = [];
const messages: SDKMessage[] = [];

beforeAll(async () => {
  fx = await openPayloadFixture('tw-payload-claude');
  home = makeTempTree('tw-claude-home');
  served = makeTempTree('tw-payload-claude-served', { ...PAYLOAD_FILES });
  const { session, ws } = await fx.openSession();
  // Every tool of the in-process server, every tool serve can grant over stdio (not web_fetch: no network), and a refusal.
  for (const c of payloadCases(fx.pageUrl)) plan.push({ id: `toolu_sdk_${c.tool}`, name: `mcp__tw__${c.tool}`, input: c.args, expected: c });
  for (const c of payloadCases()) plan.push({ id: `toolu_stdio_${c.tool}`, name: `mcp__served__${c.tool}`, input: c.args, expected: c });
  plan.push({ id: 'toolu_missing', name: 'mcp__tw__read_file', input: { path: 'missing.txt' } });
  api = await startScriptedMessagesApi((request) => {
    const ours = request.tools?.some((tool) => tool.name === 'mcp__tw__read_file') === true;
    const answered = request.messages.some((m) => typeof m.content !== 'string' && m.content.some((block) => block.type === 'tool_result'));
    if (!ours || answered) return [{ type: 'text', text: 'done' }];
    return plan.map(({ id, name, input }): ScriptedBlock => ({ type: 'tool_use', id, name, input }));
  });
  const run = query({
    prompt: 'Use every tool once.',
    options: {
      cwd: ws.root,
      model: 'claude-sonnet-4-5',
      maxTurns: 3,
      tools: [],
      settingSources: [],
      persistSession: false,
      allowedTools: plan.map((p) => p.name),
      mcpServers: {
        tw: claudeAgentMcpServer(session, { name: 'tw' }),
        served: { type: 'stdio', command: process.execPath, args: [MAIN, 'serve', '--workspace', served.root, '--tools', payloadCases().map((c) => c.tool).join(','), '--sandbox', 'off'] },
      },
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home.root,
        CLAUDE_CONFIG_DIR: path.join(home.root, '.claude'),
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    },
  });
  for await (const message of run) messages.push(message);
}, 300_000);

afterAll(async () => {
  await api?.close();
  await fx?.close();
  home?.cleanup();
  served?.cleanup();
});

describe('Claude Code (the Claude Agent SDK query() with a scripted Messages API)', () => {
  it('finishes the run with both servers connected', () => {
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(init).toMatchObject({ mcp_servers: expect.arrayContaining([{ name: 'tw', status: 'connected', source: 'sdk' }, expect.objectContaining({ name: 'served', status: 'connected' })]) });
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
  });

  it('hands the model every tool payload, from the in-process server and from serve over stdio', () => {
    const byId = new Map(api.toolResults.map((r) => [r.toolUseId, r]));
    const seen = new Map<PayloadCase, string>();
    const failed: string[] = [];
    for (const { id, expected } of plan) {
      const result = byId.get(id);
      if (expected === undefined || result === undefined) continue;
      if (result.isError) failed.push(`${id}: ${result.text}`);
      seen.set(expected, result.text);
    }
    expect(failed).toEqual([]);
    expect(plan.filter((p) => !byId.has(p.id)).map((p) => p.id)).toEqual([]);
    expect(missingPayload(plan.flatMap((p) => (p.expected === undefined ? [] : [p.expected])), seen)).toEqual([]);
  });

  it('hands the model a refusal as an error with its code and message', () => {
    expect(api.toolResults.find((r) => r.toolUseId === 'toolu_missing')).toMatchObject({ isError: true, text: expect.stringMatching(/^NOT_FOUND: missing\.txt /) });
  });
});
