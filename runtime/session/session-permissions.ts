import type { Capability } from '../../src/capability/capability.js';
import { ApprovalMemory, exposesTool, toolExposure, type McpAllows } from '../../src/policy/index.js';
import { SessionPaths } from '../broker/session-paths.js';
import type { CallContext } from '../calls/call-context.js';
import type { McpHub } from '../mcp/index.js';
import { describeRequest } from '../policy/admission-request.js';
import type { GateOutcome, GateRequest, GateSession, PolicyGate } from '../policy/policy-gate.js';
import { McpAccess } from './mcp-access.js';

/**
 * Every check of one session in one object, in the spirit of Deno's `PermissionsContainer`: the path guard, the MCP
 * allowlist, the network, the tools it sees and the rules with its approval memory. "Where is this session's rule?"
 * has one answer: here. Nothing in it can widen after the open: the capability it reads is deeply frozen.
 */
export class SessionPermissions {
  readonly capability: Capability;
  /** The path guard bound to the workspace, read roots, blocklist and excluded paths. */
  readonly paths: SessionPaths;
  /** The MCP tools this session may list and call. */
  readonly mcp: McpAccess;
  /** The facts the rules decide from, and the session's remembered `allow-always` answers. */
  readonly gateSession: GateSession;
  readonly #gate: PolicyGate;
  readonly #mcpAllows: McpAllows;

  constructor(capability: Capability, gate: PolicyGate, hub: McpHub | undefined) {
    this.capability = capability;
    this.paths = new SessionPaths(capability);
    this.mcp = new McpAccess(hub, capability);
    this.#gate = gate;
    this.#mcpAllows = (name) => this.mcp.allows(name);
    this.gateSession = { id: capability.sid, user: capability.user, permissions: capability.permissions, memory: new ApprovalMemory() };
  }

  /** The hosts commands and web_fetch may reach: false for none. */
  get net(): Capability['net'] {
    return this.capability.net;
  }

  /** Whether the session sees a tool: one of its tools, or an MCP tool its entries allow. */
  exposes(name: string): boolean {
    return exposesTool(this.capability, name, this.#mcpAllows);
  }

  /**
   * Decides a tool call: visibility, argument validation, the path guard (when a rule mentions the tool) and the
   * rules, asking the approver within the call's context. What the capability does expose is told only in a refusal.
   */
  admitCall(name: string, args: Record<string, unknown>, context: CallContext): Promise<GateOutcome> {
    const exposure = toolExposure(this.capability, name, this.#mcpAllows);
    const request = describeRequest(this.paths, name, args, { exposure, validateArgs: true, rulesMention: this.#gate.hasRulesFor(this.gateSession, name) });
    return this.#gate.enforce(this.gateSession, request, args, context);
  }

  /** Decides a host tool's `ctx` request as a call of the built-in (or MCP) tool it stands for. */
  admitCtx(tool: string, args: Record<string, unknown>, context: CallContext): Promise<GateOutcome> {
    return this.#gate.enforce(this.gateSession, describeRequest(this.paths, tool, args, { rulesMention: this.#gate.hasRulesFor(this.gateSession, tool) }), args, context);
  }

  /** Decides one bash command, described by the static check (see describeCommand). */
  admitCommand(request: GateRequest, args: Record<string, unknown>, context: CallContext): Promise<GateOutcome> {
    return this.#gate.enforce(this.gateSession, request, args, context);
  }
}
