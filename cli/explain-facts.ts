import type { SandboxMode } from '../src/capability/capability.js';
import { toPlainError } from '../src/errors.js';
import { describeShellCheck, type ExplainFacts } from '../src/policy/index.js';
import { SessionPaths } from '../runtime/broker/session-paths.js';
import { describeCall } from '../runtime/call-subject.js';
import { detectSandbox } from '../runtime/sandbox/detect-sandbox.js';
import { buildCapability } from '../runtime/session-options.js';
import { checkCommand } from '../runtime/shell/command-check.js';

/** A workspace to explain a call against, as a session would see it. */
export interface ExplainWorkspace {
  workspaceRoot: string;
  readRoots?: readonly string[] | undefined;
  sandbox: SandboxMode;
}

/** The broker's view of a call, or the guard's refusal that comes before any rule. */
export type GatheredFacts = { refused: false; facts: ExplainFacts; notes: string[] } | { refused: true; code: string; message: string };

/**
 * What the broker would know about a call in that workspace: canonical paths through the path guard for file
 * tools, and for bash the shell checker's simple commands with each one's static verdict and reasons, the
 * call's verdict, dangerous removal and what belongs to no command.
 */
export async function gatherExplainFacts(tool: string, args: Record<string, unknown>, workspace: ExplainWorkspace): Promise<GatheredFacts> {
  const capability = buildCapability(
    { workspaceRoot: workspace.workspaceRoot, ...(workspace.readRoots ? { readRoots: workspace.readRoots } : {}), tools: [] },
    { sandbox: workspace.sandbox, toolModules: [] },
  );
  const paths = new SessionPaths(capability);
  try {
    if (tool !== 'bash') return { refused: false, facts: { subject: describeCall(paths, tool, args) }, notes: [] };
    const sandboxed = workspace.sandbox !== 'off' && (await detectSandbox()).available;
    const command = typeof args['command'] === 'string' ? args['command'] : '';
    const check = await checkCommand(paths, command, paths.workingDirectory(args['cwd'] ?? '.'), process.env['HOME'] ?? capability.workspaceRoot, sandboxed);
    if (check.verdict === 'deny') {
      return { refused: true, code: check.code ?? 'POLICY_DENIED', message: `static check: ${check.reasons.join('; ')}` };
    }
    const notes = [`static check: ${check.verdict}${sandboxed ? ' (OS sandbox active)' : ' (no OS sandbox)'}`, ...check.reasons.map((r) => `  ${r}`)];
    return {
      refused: false,
      facts: { subject: describeShellCheck(check) },
      notes,
    };
  } catch (error) {
    const { code, message } = toPlainError(error);
    return { refused: true, code, message };
  }
}
