import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, explain, type AuditEvent, type Decision, type PermissionSpec, type Runtime, type ToolRule } from '../../runtime/index.js';
import { explainedExposure } from '../../cli/explain-exposure.js';
import { gatherExplainFacts } from '../../cli/explain-facts.js';
import { toolExposure } from '../../src/policy/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// explain (as `toolwarden explain --workspace` gathers its facts) and a real call must reach the same decision for
// the same rules and arguments: both go through the one admit(). The real decision is read off what happened: the
// approver was asked (ask), the audit recorded a refusal (deny), or the call ran (allow, even when it then failed).
let home: TempTree;
let ws: string;
let rt: Runtime;
const asked: string[] = [];
const events: AuditEvent[] = [];

beforeAll(async () => {
  home = makeTempTree('tw-explain-call', { 'outside.txt': 'o\n', 'ws/a.txt': 'a\n', 'ws/src/b.ts': 'b\n', 'ws/secret/k.txt': 'k\n', 'ws/.git/hooks/.keep': '' });
  ws = home.at('ws');
  rt = await createRuntime({
    idleWorkers: 2,
    // Every ask is answered deny, so nothing dangerous runs and no answer is remembered.
    approve: (request) => {
      asked.push(request.tool);
      return 'deny';
    },
    audit: { callback: (event) => events.push(event), full: true },
  });
});
afterAll(async () => {
  await rt.close();
  home.cleanup();
});

const PATHS = ['a.txt', 'src/b.ts', 'secret/k.txt', 'missing.txt', '../outside.txt', '.git/hooks/pre-commit', 'src', '.'];
// Harmless when they run (sandbox off): the only removal is dangerous, so it always asks and is answered deny.
const COMMANDS = ['echo hi', 'cat a.txt', 'cat ../outside.txt', 'ls src', 'git status', 'rm -rf .', 'mystery-tool', 'echo a && git push', 'cat secret/k.txt | wc -l'];
const PATTERNS = ['**', 'secret/**', 'src/**', 'a.txt', '*.txt', 'echo *', 'git *', 'cat *', 'rm *', 'ls *'];
const TOOLS = ['read_file', 'write_file', 'list_dir', 'bash'] as const;

const decision = fc.constantFrom<Decision>('allow', 'ask', 'deny');
const patterns = fc.uniqueArray(fc.constantFrom(...PATTERNS), { maxLength: 3 });
const rule: fc.Arbitrary<ToolRule> = fc.oneof(
  decision,
  fc.record({ allow: patterns, ask: patterns, deny: patterns, default: decision }, { requiredKeys: [] }),
);
const spec: fc.Arbitrary<PermissionSpec> = fc.dictionary(fc.constantFrom(...TOOLS), rule, { maxKeys: 3 });
const callOf = fc.oneof(
  fc.record({ tool: fc.constant('read_file'), args: fc.record({ path: fc.constantFrom(...PATHS) }) }),
  fc.record({ tool: fc.constant('write_file'), args: fc.record({ path: fc.constantFrom(...PATHS), content: fc.constant('x\n') }) }),
  fc.record({ tool: fc.constant('list_dir'), args: fc.record({ path: fc.constantFrom(...PATHS) }) }),
  fc.record({ tool: fc.constant('bash'), args: fc.record({ command: fc.constantFrom(...COMMANDS) }) }),
);

describe('explain and a real call decide alike', () => {
  it('for generated rules and calls', async () => {
    await fc.assert(
      fc.asyncProperty(spec, callOf, async (permissions, { tool, args }) => {
        const expected = explain({ session: permissions }, tool, args, (await gatherExplainFacts(tool, args, { workspaceRoot: ws, sandbox: 'off' })).facts);
        const session = await rt.openSession({ workspaceRoot: ws, tools: [...TOOLS], sandbox: 'off', permissions });
        try {
          asked.length = 0;
          const before = events.length;
          await session.call(tool, args);
          const event = events.slice(before).find((e) => e.tool === tool);
          const actual: Decision = asked.length > 0 ? 'ask' : event?.decision === 'deny' ? 'deny' : 'allow';
          expect({ decision: actual, rule: asked.length > 0 || actual === 'deny' ? event?.rule : undefined }).toEqual({
            decision: expected.decision,
            // A refusal is recorded under the rule explain names (an approver's deny, under the rule that asked).
            rule: expected.decision === 'allow' ? undefined : expected.rule,
          });
        } finally {
          await session.close();
        }
      }),
      { numRuns: 60, seed: 1414 },
    );
  }, 120_000);
});

describe('explain and a real call refuse a tool the capability lacks alike', () => {
  // The session's tools are any subset of the ones called; the names include some no capability has.
  const granted = fc.subarray([...TOOLS]);
  const named = fc.record({ tool: fc.constantFrom(...TOOLS, 'read_fil', 'nosuch', 'mcp__none__tool'), args: fc.record({ path: fc.constantFrom('a.txt', 'src') }) });

  it('for generated capabilities and calls', async () => {
    await fc.assert(
      fc.asyncProperty(granted, named, async (tools, { tool, args }) => {
        // As `toolwarden explain --tools` decides it: the exposure first, before any fact about the arguments.
        const exposure = toolExposure(explainedExposure(undefined, { tools }, undefined).exposed, tool);
        const expected = explain({}, tool, args, { exposure });
        const session = await rt.openSession({ workspaceRoot: ws, tools, sandbox: 'off' });
        try {
          const before = events.length;
          const result = await session.call(tool, args);
          const event = events.slice(before).find((e) => e.tool === tool);
          const refused = event?.rule === 'capability';
          expect({ refused, code: refused ? result.code : undefined }).toEqual({
            refused: expected.gate === 'capability',
            code: expected.gate === 'capability' ? 'TOOL_NOT_ALLOWED' : undefined,
          });
          if (refused) expect(result.content[0]).toMatchObject({ text: `TOOL_NOT_ALLOWED: ${expected.reason}` });
        } finally {
          await session.close();
        }
      }),
      { numRuns: 40, seed: 3030 },
    );
  }, 120_000);
});
