import { parseArgs } from 'node:util';
import { ToolwardenError } from '../../src/errors.js';
import { explain, type ExplainFacts, type PermissionSpec } from '../../src/policy/index.js';
import { loadServeConfig } from '../../runtime/serve/load-serve-config.js';
import { EXIT, type CliIo } from '../cli-io.js';
import { gatherExplainFacts } from '../explain-facts.js';
import { HELP_OPTION, usageErrors, requireChoice } from '../parse-command-args.js';
import type { ServeConfig } from '../../src/serve/serve-config.js';
import { USAGE } from '../usage.js';

const OPTIONS = {
  ...HELP_OPTION,
  tool: { type: 'string' },
  args: { type: 'string' },
  config: { type: 'string' },
  user: { type: 'string' },
  workspace: { type: 'string' },
  sandbox: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/**
 * `toolwarden explain`: what a call would get under the config's host rules and a user's session rules, and
 * which rule decides. With a workspace, paths go through the path guard and commands through the shell check first.
 * With `--json`, one JSON object: the {@link explain} result without its text, plus `notes` (or the refusal's code).
 * @returns the exit code
 */
export async function runExplain(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = usageErrors('explain', () => parseArgs({ args: [...argv], options: OPTIONS, strict: true }).values);
  if (flags.help) {
    io.stdout(USAGE.explain);
    return EXIT.ok;
  }
  if (flags.tool === undefined || flags.args === undefined) throw new ToolwardenError('INVALID_ARGS', 'toolwarden explain: --tool and --args are required');
  const args = parseArgsJson(flags.args);
  const sandbox = requireChoice('sandbox', flags.sandbox, ['auto', 'required', 'off'] as const);
  const config = flags.config === undefined ? undefined : loadServeConfig(flags.config);
  const session = sessionRules(config, flags.user);
  const workspaceRoot = flags.workspace ?? (flags.user === undefined ? undefined : config?.tenants[flags.user]?.workspaceRoot);
  const lines: string[] = [];
  let facts: ExplainFacts = {};
  if (workspaceRoot !== undefined) {
    const readRoots = flags.user === undefined ? undefined : config?.tenants[flags.user]?.readRoots;
    const gathered = await gatherExplainFacts(flags.tool, args, { workspaceRoot, readRoots, sandbox: sandbox ?? config?.sandbox ?? 'auto' });
    facts = gathered.facts;
    lines.push(...gathered.notes);
  }
  const explanation = explain({ host: config?.permissions, session }, flags.tool, args, facts);
  if (explanation.gate === 'refused') {
    const refusal = { code: explanation.code, message: explanation.reason };
    if (flags.json) {
      io.stdout(`${JSON.stringify({ tool: flags.tool, args, decision: 'deny', refusedBeforeRules: refusal }, null, 2)}\n`);
      return EXIT.ok;
    }
    io.stdout(`${flags.tool} ${JSON.stringify(args)} -> deny\n  refused before any rule: ${refusal.code ?? 'POLICY_DENIED'}: ${refusal.message}\n`);
    return EXIT.ok;
  }
  if (flags.json) {
    const { text: _text, ...decision } = explanation;
    io.stdout(`${JSON.stringify({ ...decision, args, notes: lines }, null, 2)}\n`);
    return EXIT.ok;
  }
  io.stdout(`${[explanation.text, ...lines.map((line) => `  ${line}`)].join('\n')}\n`);
  return EXIT.ok;
}

function parseArgsJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolwardenError('INVALID_ARGS', `toolwarden explain: --args is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolwardenError('INVALID_ARGS', 'toolwarden explain: --args must be a JSON object, e.g. \'{"path":"src/a.ts"}\'');
  }
  return value as Record<string, unknown>;
}

function sessionRules(config: ServeConfig | undefined, user: string | undefined): PermissionSpec | undefined {
  if (user === undefined) return undefined;
  const tenant = config?.tenants[user];
  if (tenant === undefined) throw new ToolwardenError('INVALID_OPTIONS', `user '${user}' has no entry in the config's tenants${config ? '' : ' (no --config given)'}`);
  return tenant.permissions;
}
