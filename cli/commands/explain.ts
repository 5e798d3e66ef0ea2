import { didYouMean } from '../../src/did-you-mean.js';
import { ToolwardenError } from '../../src/errors.js';
import { explain, toolExposure, type ExplainFacts, type Explanation } from '../../src/policy/index.js';
import { SANDBOX_MODES } from '../../src/sandbox/types.js';
import type { ServeConfig, ServeTenant } from '../../src/serve/serve-config.js';
import { loadServeConfig } from '../../runtime/serve/load-serve-config.js';
import { EXIT, type CliIo } from '../cli-io.js';
import { explainedExposure } from '../explain-exposure.js';
import { gatherExplainFacts } from '../explain-facts.js';
import { HELP_OPTION, parseCommandArgs, requireChoice, toolList, usageError } from '../parse-command-args.js';
import { USAGE } from '../usage.js';

const OPTIONS = {
  ...HELP_OPTION,
  tool: { type: 'string' },
  args: { type: 'string' },
  config: { type: 'string' },
  user: { type: 'string' },
  tools: { type: 'string' },
  mcp: { type: 'string', multiple: true },
  workspace: { type: 'string' },
  sandbox: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/**
 * `toolwarden explain`: what a call would get under the config's host rules and a user's session rules, and
 * which rule decides. A tool the session's capability lacks is TOOL_NOT_ALLOWED, by the same admit() a call goes
 * through; with a workspace, paths go through the path guard and commands through the shell check first.
 * With `--json`, one JSON object: the {@link explain} result without its text, plus `notes` (or the refusal's code).
 * @returns the exit code
 */
export async function runExplain(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseCommandArgs(argv, OPTIONS).values;
  if (flags.help) {
    io.stdout(USAGE.explain);
    return EXIT.ok;
  }
  if (flags.tool === undefined || flags.args === undefined) throw usageError('--tool and --args are required');
  const args = parseArgsJson(flags.args);
  const sandbox = requireChoice('sandbox', flags.sandbox, SANDBOX_MODES);
  const tools = toolList(flags.tools);
  const config = flags.config === undefined ? undefined : loadServeConfig(flags.config);
  const tenant = tenantOf(config, flags.user);
  const { exposed, note } = explainedExposure(config, { tools, mcp: flags.mcp, user: flags.user }, tenant);
  const exposure = toolExposure(exposed, flags.tool);
  const workspaceRoot = flags.workspace ?? tenant?.workspaceRoot;
  const notes = note === undefined ? [] : [note];
  let facts: ExplainFacts = { exposure };
  // A tool the capability lacks is refused before its arguments are looked at, as in a session.
  if (exposure.visible && workspaceRoot !== undefined) {
    const gathered = await gatherExplainFacts(flags.tool, args, { workspaceRoot, readRoots: tenant?.readRoots, sandbox: sandbox ?? config?.sandbox ?? 'auto' });
    facts = { ...gathered.facts, exposure };
    notes.push(...gathered.notes);
  }
  const explanation = explain({ host: config?.permissions, session: tenant?.permissions }, flags.tool, args, facts);
  io.stdout(`${flags.json ? JSON.stringify(jsonOf(explanation, args, notes), null, 2) : textOf(explanation, args, notes)}\n`);
  return EXIT.ok;
}

/** The decision as JSON: a refusal before any rule (by the capability or a check) is its code and message. */
function jsonOf(explanation: Explanation, args: Record<string, unknown>, notes: string[]): object {
  if (explanation.gate === 'capability' || explanation.gate === 'refused') {
    const refusal = { code: explanation.code, message: explanation.reason };
    return { tool: explanation.tool, args, decision: 'deny', rule: explanation.rule, refusedBeforeRules: refusal, notes };
  }
  const { text: _text, ...decision } = explanation;
  return { ...decision, args, notes };
}

function textOf(explanation: Explanation, args: Record<string, unknown>, notes: string[]): string {
  const noted = notes.map((line) => `  ${line}`);
  if (explanation.gate === 'capability' || explanation.gate === 'refused') {
    const by = explanation.gate === 'capability' ? 'refused by the capability' : 'refused before any rule';
    return [`${explanation.tool} ${JSON.stringify(args)} -> deny`, `  ${by}: ${explanation.code ?? 'POLICY_DENIED'}: ${explanation.reason}`, ...noted].join('\n');
  }
  return [explanation.text, ...noted].join('\n');
}

function parseArgsJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`--args is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError('--args must be a JSON object, e.g. \'{"path":"src/a.ts"}\'');
  }
  return value as Record<string, unknown>;
}

/** The tenant of `--user` (its session rules, workspace, read roots and tools), an own entry of the config's tenants. */
function tenantOf(config: ServeConfig | undefined, user: string | undefined): ServeTenant | undefined {
  if (user === undefined) return undefined;
  const tenant = config !== undefined && Object.hasOwn(config.tenants, user) ? config.tenants[user] : undefined;
  if (tenant === undefined) throw new ToolwardenError('INVALID_OPTIONS', `user '${user}' has no entry in the config's tenants${config ? didYouMean(user, Object.keys(config.tenants)) : ' (no --config given)'}`);
  return tenant;
}
