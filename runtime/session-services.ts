import { ApprovalMemory } from '../src/policy/index.js';
import type { Capability } from '../src/capability/capability.js';
import { resolveShellCharset, type CharsetProbe } from '../src/charset.js';
import { buildChildEnv } from '../src/child-env.js';
import type { BrokerApi } from '../src/protocol.js';
import type { ToolResult } from '../src/tool-result.js';
import type { AuditSink } from './audit/index.js';
import { createBroker } from './broker/broker.js';
import { SessionPaths } from './broker/session-paths.js';
import { WriteQuota } from './broker/write-quota.js';
import { McpAccess } from './mcp-access.js';
import type { McpHub } from './mcp/index.js';
import { webFetch } from './net/web-fetch.js';
import type { GateSession, PolicyGate } from './policy/policy-gate.js';
import type { ShellSpec } from './processes/index.js';
import type { SandboxChoice } from './sandbox/create-sandbox.js';
import { BashService } from './shell/bash-service.js';
import type { WalkPool } from './walk/index.js';

/** Runtime-wide services every session shares. */
export interface RuntimeServices {
  readonly gate: PolicyGate;
  readonly audit: AuditSink;
  readonly walk: WalkPool;
  readonly mcp: McpHub | undefined;
  readonly shell: ShellSpec;
  readonly charsetProbe: CharsetProbe;
  /** The sandbox for a mode; detection runs once per runtime. */
  sandboxFor(mode: Capability['sandbox']): Promise<SandboxChoice>;
}

/** What one session owns on the main thread. */
export interface SessionServices {
  readonly paths: SessionPaths;
  readonly broker: BrokerApi;
  readonly bash: BashService;
  readonly mcp: McpAccess;
  readonly gateSession: GateSession;
}

const DEFAULT_FETCH_MAX_BYTES = 1_000_000;

/** Builds a session's guard, broker, bash service and MCP view from its verified capability. */
export async function createSessionServices(runtime: RuntimeServices, capability: Capability): Promise<SessionServices> {
  const paths = new SessionPaths(capability);
  const charset = resolveShellCharset(capability.shellEncoding === undefined ? {} : { shellEncoding: capability.shellEncoding }, runtime.charsetProbe);
  const env = buildChildEnv(process.env, Array.isArray(capability.env) ? [...capability.env] : { ...(capability.env as Record<string, string>) });
  const sandbox = await runtime.sandboxFor(capability.sandbox);
  const gateSession: GateSession = { id: capability.sid, user: capability.user, permissions: capability.permissions, memory: new ApprovalMemory() };
  const log = (tool: string, args: unknown, result: string): void => {
    runtime.audit.emit({
      time: new Date().toISOString(),
      sessionId: capability.sid,
      ...(capability.user === undefined ? {} : { user: capability.user }),
      tool,
      args,
      decision: 'allow',
      durationMs: 0,
      result,
    });
  };
  if (charset.warning) log('toolwarden', { event: 'charset' }, charset.warning);
  const bash = new BashService({
    capability,
    paths,
    gate: runtime.gate,
    gateSession,
    sandbox: sandbox.sandbox,
    sandboxWarning: sandbox.warning,
    encoding: charset.encoding,
    shell: runtime.shell,
    env,
    warn: (message) => log('bash', { event: 'sandbox' }, message),
  });
  const mcp = new McpAccess(runtime.mcp, capability);
  const broker = createBroker({
    paths,
    quota: new WriteQuota(capability.limits.writeQuotaBytes),
    limits: capability.limits,
    walk: runtime.walk,
    bash: (args) => bash.handle(args),
    webFetch: (args): Promise<ToolResult> =>
      webFetch(args as unknown as Parameters<typeof webFetch>[0], {
        net: capability.net === false ? false : [...capability.net],
        timeoutMs: capability.limits.toolTimeoutMs,
        maxBytes: DEFAULT_FETCH_MAX_BYTES,
      }),
    mcpCall: (tool, args) => mcp.call(tool, args),
    log: (level, message, data) => log('ctx.log', { level, message, data }, message),
  });
  return { paths, broker, bash, mcp, gateSession };
}
