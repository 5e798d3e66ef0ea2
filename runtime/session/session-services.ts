import { ApprovalMemory } from '../../src/policy/index.js';
import type { ZygoteSlots } from '../sandbox/zygote-slots.js';
import type { Capability } from '../../src/capability/capability.js';
import { resolveShellCharset, type CharsetProbe } from '../../src/charset.js';
import { buildChildEnv } from '../../src/child-env.js';
import type { ToolResult } from '../../src/tool-result.js';
import { auditOutcome } from '../../src/audit/index.js';
import type { AuditSink } from '../audit/index.js';
import { createBroker, type BrokerFor } from '../broker/broker.js';
import { createBrokerServer, type BrokerServer } from '../broker/broker-server.js';
import { SessionPaths } from '../broker/session-paths.js';
import { WriteQuota } from '../broker/write-quota.js';
import { McpAccess } from './mcp-access.js';
import type { McpHub } from '../mcp/index.js';
import { webFetch } from '../net/web-fetch.js';
import type { GateSession, PolicyGate } from '../policy/policy-gate.js';
import { describeRequest } from '../policy/admission-request.js';
import type { ShellSpec } from '../processes/index.js';
import type { SandboxChoice } from '../sandbox/create-sandbox.js';
import { BashService } from '../shell/bash-service.js';
import { createCredentialBroker } from '../net/egress/credential-broker.js';
import { heldCredentials } from '../../src/net/egress/credentials.js';
import { needsEgress, startSessionEgress } from '../net/egress/session-egress.js';
import { CallTracker } from '../broker/call-tracker.js';
import { isBuiltinTool } from '../../src/tools/builtin-schemas.js';
import type { WalkPool } from '../walk/index.js';
import { remainingMs, type CallContext } from '../calls/call-context.js';

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
  /** The runtime's count of live session zygotes (undefined with `sandboxZygote: false`). */
  readonly zygoteSlots: ZygoteSlots | undefined;
}

/** What one session owns on the main thread. */
export interface SessionServices {
  readonly paths: SessionPaths;
  /** The broker for the work of one call (its signal and deadline). */
  readonly broker: BrokerFor;
  /** The broker as the session's worker or tool process reaches it: per-call capabilities, refusals audited. */
  readonly brokerServer: BrokerServer;
  readonly bash: BashService;
  readonly mcp: McpAccess;
  readonly gateSession: GateSession;
  /** The calls in flight, each under its broker capability id. */
  readonly calls: CallTracker;
  /** Bytes written against `limits.writeQuotaBytes`. */
  readonly quota: WriteQuota;
  /** web_fetch, run on the main thread, stopped at the call's deadline or when it ends. */
  fetch(args: Record<string, unknown>, context: CallContext): Promise<ToolResult>;
}

const DEFAULT_FETCH_MAX_BYTES = 1_000_000;

/** Builds a session's guard, broker, bash service and MCP view from its verified capability. */
export async function createSessionServices(runtime: RuntimeServices, capability: Capability): Promise<SessionServices> {
  const paths = new SessionPaths(capability);
  const charset = resolveShellCharset(capability.shellEncoding === undefined ? {} : { shellEncoding: capability.shellEncoding }, runtime.charsetProbe);
  const allowEnv = Array.isArray(capability.env) ? [...capability.env] : { ...(capability.env as Record<string, string>) };
  // Checked now (a bad pattern fails the open); built from the host's variables when a command first needs them,
  // since reading the whole of process.env costs a warm open a tenth of a millisecond.
  buildChildEnv({}, allowEnv);
  let builtEnv: Record<string, string> | undefined;
  const env = (): Record<string, string> => (builtEnv ??= buildChildEnv(process.env, allowEnv));
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
  // Sandboxed commands of a session with a host list reach those hosts through its own proxy, and nothing else;
  // credentials exist only there (commands see placeholders).
  const credentials = heldCredentials(capability.credentials);
  const credentialBroker = Object.keys(credentials).length > 0 ? createCredentialBroker(capability.sid, credentials) : undefined;
  const egress = sandbox.sandbox.kind === 'bubblewrap' && needsEgress(capability.net)
    ? await startSessionEgress({
        ...(credentialBroker === undefined ? {} : { interceptor: credentialBroker, placeholders: credentialBroker.placeholders, writeCa: credentialBroker.writeCa }),
        sessionId: capability.sid,
        ...(capability.user === undefined ? {} : { user: capability.user }),
        net: capability.net,
        maxConnections: capability.limits.egressMaxConnections,
        maxBytes: capability.limits.egressMaxBytes,
        audit: (event) => runtime.audit.emit(event),
        commands: (): string[] => bash.runningCommands(),
      })
    : undefined;
  if (egress?.warning !== undefined) log('bash', { event: 'egress' }, egress.warning);
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
    ...(egress === undefined ? {} : { egress }),
    ...(runtime.zygoteSlots === undefined ? {} : { zygoteSlots: runtime.zygoteSlots }),
  });
  const mcp = new McpAccess(runtime.mcp, capability);
  const calls = new CallTracker((name) => !isBuiltinTool(name) && !name.startsWith('mcp__'));
  const fetch = (args: Record<string, unknown>, context: CallContext): Promise<ToolResult> =>
    webFetch(args as unknown as Parameters<typeof webFetch>[0], {
      net: capability.net === false ? false : [...capability.net],
      timeoutMs: Math.max(1, Math.min(capability.limits.toolTimeoutMs, remainingMs(context))),
      maxBytes: DEFAULT_FETCH_MAX_BYTES,
      signal: context.signal,
      ...(credentialBroker === undefined ? {} : { substitute: credentialBroker.substituteFetch }),
    });
  const quota = new WriteQuota(capability.limits.writeQuotaBytes);
  const broker = createBroker({
    paths,
    quota,
    limits: capability.limits,
    walk: runtime.walk,
    bash: (args, context, report) => bash.handle(args, context, report),
    fetch,
    mcp: (tool, args, context) => mcp.call(tool, args, context),
    admitCtx: (tool, args, context) => runtime.gate.enforce(gateSession, describeRequest(paths, tool, args, { rulesMention: runtime.gate.hasRulesFor(gateSession, tool) }), args, context),
    auditCtx: (tool, args, admission, result, durationMs) => {
      runtime.audit.emit({
        time: new Date(Date.now() - durationMs).toISOString(),
        sessionId: capability.sid,
        ...(capability.user === undefined ? {} : { user: capability.user }),
        tool,
        args,
        ...auditOutcome(admission, result),
        ...(result.code === undefined ? {} : { code: result.code }),
        durationMs: Math.round(durationMs * 1000) / 1000,
        result: result.content.map((c) => c.text).join('\n'),
      });
    },
    log: (level, message, data) => log('ctx.log', { level, message, data }, message),
  });
  const brokerServer = createBrokerServer(broker, calls, (refusal) => {
    runtime.audit.emit({
      time: new Date().toISOString(),
      sessionId: capability.sid,
      ...(capability.user === undefined ? {} : { user: capability.user }),
      tool: `broker:${refusal.type ?? '?'}`,
      args: { callId: refusal.callId ?? null, ...(refusal.tool === undefined ? {} : { callTool: refusal.tool }) },
      decision: 'deny',
      rule: 'call capability',
      code: 'BROKER_REFUSED',
      durationMs: 0,
      result: refusal.reason,
    });
  });
  return { paths, broker, brokerServer, bash, mcp, gateSession, calls, quota, fetch };
}
