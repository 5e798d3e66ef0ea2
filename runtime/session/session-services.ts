import type { SecureContext } from 'node:tls';
import type { ZygoteSlots } from '../sandbox/zygote-slots.js';
import { isMcpToolName } from '../../src/mcp/tool-name.js';
import type { Capability } from '../../src/capability/capability.js';
import { resolveShellCharset, type CharsetProbe } from '../../src/charset.js';
import { buildChildEnv } from '../../src/child-env.js';
import type { ToolResult } from '../../src/tool-result.js';
import type { AuditSink } from '../audit/index.js';
import { createBroker, type BrokerFor } from '../broker/broker.js';
import { createBrokerServer, type BrokerServer } from '../broker/broker-server.js';
import { WriteQuota } from '../broker/write-quota.js';
import { SessionPermissions } from './session-permissions.js';
import { callAuditEvent, sessionAuditEvent } from '../calls/call-audit.js';
import type { McpHub } from '../mcp/index.js';
import { webFetch } from '../net/web-fetch.js';
import type { PolicyGate } from '../policy/policy-gate.js';
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
  /** The TLS trust for credential hosts (`upstreamCa`); undefined: Node's default trust. */
  readonly upstreamTrust: SecureContext | undefined;
}

/** What one session owns on the main thread. */
export interface SessionServices {
  /** Every check of the session: path guard, MCP access, net, tools and rules (see SessionPermissions). */
  readonly permissions: SessionPermissions;
  /** The broker for the work of one call (its signal and deadline). */
  readonly broker: BrokerFor;
  /** The broker as the session's worker or tool process reaches it: per-call capabilities, refusals audited. */
  readonly brokerServer: BrokerServer;
  readonly bash: BashService;
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
  const permissions = new SessionPermissions(capability, runtime.gate, runtime.mcp);
  const charset = resolveShellCharset(capability.shellEncoding === undefined ? {} : { shellEncoding: capability.shellEncoding }, runtime.charsetProbe);
  const allowEnv = Array.isArray(capability.env) ? [...capability.env] : { ...(capability.env as Record<string, string>) };
  // Checked now (a bad pattern fails the open); built from the host's variables when a command first needs them,
  // since reading the whole of process.env costs a warm open a tenth of a millisecond.
  buildChildEnv({}, allowEnv);
  let builtEnv: Record<string, string> | undefined;
  const env = (): Record<string, string> => (builtEnv ??= buildChildEnv(process.env, allowEnv));
  const sandbox = await runtime.sandboxFor(capability.sandbox);
  const log = (tool: string, args: unknown, result: string): void => runtime.audit.emit(sessionAuditEvent(capability, tool, args, 'allow', result));
  if (charset.warning) log('toolwarden', { event: 'charset' }, charset.warning);
  // Sandboxed commands of a session with a host list reach those hosts through its own proxy, and nothing else;
  // credentials exist only there (commands see placeholders).
  const credentials = heldCredentials(capability.credentials);
  const credentialBroker = Object.keys(credentials).length > 0 ? createCredentialBroker(capability.sid, credentials, runtime.upstreamTrust === undefined ? {} : { upstreamTrust: runtime.upstreamTrust }) : undefined;
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
    permissions,
    sandbox: sandbox.sandbox,
    sandboxWarning: sandbox.warning,
    encoding: charset.encoding,
    shell: runtime.shell,
    env,
    warn: (message) => log('bash', { event: 'sandbox' }, message),
    ...(egress === undefined ? {} : { egress }),
    ...(runtime.zygoteSlots === undefined ? {} : { zygoteSlots: runtime.zygoteSlots }),
  });
  const calls = new CallTracker((name) => !isBuiltinTool(name) && !isMcpToolName(name));
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
    paths: permissions.paths,
    quota,
    limits: capability.limits,
    walk: runtime.walk,
    bash: (args, context, report) => bash.handle(args, context, report),
    fetch,
    mcp: (tool, args, context) => permissions.mcp.run(tool, args, context),
    admitCtx: (tool, args, context) => permissions.admitCtx(tool, args, context),
    auditCtx: (tool, args, admission, result, durationMs, refusal) => runtime.audit.emit(callAuditEvent(capability, tool, args, admission, result, durationMs, refusal)),
    log: (level, message, data) => log('ctx.log', { level, message, data }, message),
  });
  const brokerServer = createBrokerServer(broker, calls, (refusal) => {
    runtime.audit.emit({
      ...sessionAuditEvent(capability, `broker:${refusal.type ?? '?'}`, { callId: refusal.callId ?? null, ...(refusal.tool === undefined ? {} : { callTool: refusal.tool }) }, 'allow', refusal.reason, 'BROKER_REFUSED'),
      decision: 'deny',
      rule: 'call capability',
    });
  });
  return { permissions, broker, brokerServer, bash, calls, quota, fetch };
}
