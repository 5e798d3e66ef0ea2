import type { SandboxMode } from '../src/capability/capability.js';
import type { ExplainFacts } from '../src/policy/index.js';
import { SessionPaths } from '../runtime/broker/session-paths.js';
import { describeCommand, describeRequest, refusalOf } from '../runtime/policy/admission-request.js';
import { detectSandbox } from '../runtime/sandbox/detect-sandbox.js';
import { buildCapability } from '../runtime/session/session-options.js';

/** A workspace to explain a call against, as a session would see it. */
export interface ExplainWorkspace {
  workspaceRoot: string;
  readRoots?: readonly string[] | undefined;
  sandbox: SandboxMode;
}

/** The broker's view of a call (its subject, or the refusal that comes before any rule), and notes for the reader. */
export interface GatheredFacts {
  facts: ExplainFacts;
  notes: string[];
}

/**
 * What the broker would know about a call in that workspace, gathered by the very functions a session's admission
 * uses: arguments checked and canonical paths through the path guard for the other tools, and for bash the working
 * directory through the guard and the shell checker's simple commands with each one's static verdict and reasons,
 * the call's verdict, dangerous removal and what belongs to no command. A refusal before any rule is a fact too.
 */
export async function gatherExplainFacts(tool: string, args: Record<string, unknown>, workspace: ExplainWorkspace): Promise<GatheredFacts> {
  const capability = buildCapability(
    { workspaceRoot: workspace.workspaceRoot, ...(workspace.readRoots ? { readRoots: workspace.readRoots } : {}), tools: [] },
    { sandbox: workspace.sandbox, toolModules: [] },
  );
  const paths = new SessionPaths(capability);
  if (tool !== 'bash') {
    const request = describeRequest(paths, tool, args, { rulesMention: true, validateArgs: true });
    return { facts: { ...(request.subject ? { subject: request.subject } : {}), ...(request.refused ? { refused: request.refused } : {}) }, notes: [] };
  }
  const sandboxed = workspace.sandbox !== 'off' && (await detectSandbox()).available;
  const command = typeof args['command'] === 'string' ? args['command'] : '';
  try {
    const { request, check } = await describeCommand(paths, command, args['cwd'], process.env['HOME'] ?? capability.workspaceRoot, sandboxed);
    const notes = check === undefined || check.verdict === 'deny' ? [] : [`static check: ${check.verdict}${sandboxed ? ' (OS sandbox active)' : ' (no OS sandbox)'}`, ...check.reasons.map((r) => `  ${r}`)];
    return { facts: { ...(request.subject ? { subject: request.subject } : {}), ...(request.refused ? { refused: request.refused } : {}) }, notes };
  } catch (error) {
    return { facts: { refused: refusalOf(error) }, notes: [] };
  }
}
