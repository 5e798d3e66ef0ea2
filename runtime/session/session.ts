import { ToolwardenError, toPlainError } from '../../src/errors.js';
import type { Capability } from '../../src/capability/capability.js';
import type { WorkRefusal } from '../../src/audit/index.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import { BUILTIN_TOOL_NAMES, isBuiltinTool } from '../../src/tools/builtin-schemas.js';
import { describeBuiltinTool, type ToolInfo } from '../../src/tools/tool-info.js';
import type { NarrowRequest } from '../../src/capability/narrow.js';
import type { AuditSink } from '../audit/index.js';
import { admitCall, type Admission } from '../calls/admission.js';
import { callAuditEvent, sessionAuditEvent } from '../calls/call-audit.js';
import { mainThreadTurn } from '../calls/main-thread-turn.js';
import { InFlightCall } from '../calls/in-flight-call.js';
import { watchOverrun } from '../calls/overrun-watch.js';
import { ToolHostConnection, type ToolHostLink, type WorkerEnd } from '../tool-hosts/tool-host-connection.js';
import type { SessionServices } from './session-services.js';

export type { Admission } from '../calls/admission.js';
export type { AdmissionReport } from '../calls/call-plan.js';

/** Options of one {@link Session.call}. */
export interface CallOptions {
  /**
   * Aborting it ends the call with ABORTED at once and stops its work: the command's process group is killed, the
   * walk's thread is replaced, an MCP request is cancelled upstream, an approver's wait ends, a host tool's
   * `ctx.signal` aborts.
   */
  signal?: AbortSignal;
}

/**
 * What a session is opened with: its own services, and the parts of its runtime it uses, handed down. A call never
 * goes back up to the runtime: the session admits, plans, runs and audits it itself.
 */
export interface SessionInit {
  readonly capability: Capability;
  /** The signed token, or how to sign it when first read. */
  readonly token: string | (() => string);
  /** When the token expires, in epoch seconds. */
  readonly tokenExpiresAt: number;
  readonly services: SessionServices;
  /** Starts a tool host for the session: a pooled worker, or a tool process for `isolation: 'process'`. */
  startHost(): Promise<ToolHostLink>;
  /** Listing entries of the session's host tools by name (its modules probed once per runtime). */
  hostTools(): Promise<ReadonlyMap<string, ToolInfo>>;
  /** Where calls are audited; undefined when the runtime keeps no audit (no event is built then). */
  readonly audit: AuditSink | undefined;
  /** Opens a child narrowed from `parent`: a new session of the same registry, counted against the same quotas. */
  openChild(parent: Session, request: NarrowRequest): Promise<Session>;
  /** Told once the session has closed and its work stopped, so its registry lets it go. */
  onClose(session: Session): Promise<void>;
}

/** Admission of a call that ended before admit() saw it (closed, malformed, over the limit): it ran nothing. */
const NOT_ADMITTED: Admission = Object.freeze({ decision: 'allow' });

/**
 * One agent session: a capability, a worker that runs its tools, and the broker that does its I/O.
 * Tool failures resolve as results with a code; only misuse of the API throws.
 */
export class Session {
  /** Session id (also the token's id). */
  readonly id: string;
  /** The verified capability this session runs under, deeply frozen: what it allows cannot change after the open. */
  readonly capability: Capability;
  /** When {@link token} expires, in epoch seconds (its `exp`); a child's token never outlives it. */
  readonly tokenExpiresAt: number;
  #token: string | (() => string);
  readonly #init: SessionInit;
  readonly #services: SessionServices;
  #worker: Promise<ToolHostConnection> | undefined;
  #closed = false;
  #inFlight = 0;
  /** Calls in flight, ended with SESSION_CLOSED by {@link close}. */
  readonly #active = new Set<InFlightCall>();
  /** Per tool host connection, when its host tool modules have loaded. */
  readonly #loaded = new WeakMap<ToolHostConnection, Promise<void>>();
  /** The worker whose host tool modules have loaded, once one has: a call finding it alive reaches it without waiting. */
  #ready: ToolHostConnection | undefined;
  readonly #toolListeners = new Set<() => void>();
  /** Open children from {@link attenuate}: they close with this session. */
  readonly #children = new Set<Session>();
  /** Unlinks this session from its parent's children when it closes first. */
  #detach: (() => void) | undefined;

  /** @internal opened by the runtime */
  constructor(init: SessionInit) {
    this.#init = init;
    this.#services = init.services;
    this.capability = init.capability;
    this.id = init.capability.sid;
    this.#token = init.token;
    this.tokenExpiresAt = init.tokenExpiresAt;
  }

  /** The signed token carrying {@link capability}; can open an equal session in a runtime with the same key. */
  get token(): string {
    if (typeof this.#token === 'function') this.#token = this.#token();
    return this.#token;
  }

  /** The user this session acts for, if any. */
  get user(): string | undefined {
    return this.capability.user;
  }

  /** Whether {@link close} has been called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** @internal the session's services, for its registry's operator views (processes, quota) */
  get services(): SessionServices {
    return this.#services;
  }

  /** @internal binds the first worker; the runtime awaits this in openSession. */
  async start(): Promise<void> {
    await this.#currentWorker();
  }

  /** Tools this session may call, as `{ name, description, inputSchema }`; nothing else is visible. */
  async listTools(): Promise<ToolInfo[]> {
    if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', `session ${this.id} is closed`);
    const hostTools = await this.#init.hostTools();
    const local = this.capability.tools.flatMap((name) => {
      if (isBuiltinTool(name)) return [describeBuiltinTool(name)];
      const info = hostTools.get(name);
      return info ? [info] : [];
    });
    const remote = await this.#services.permissions.mcp.listTools((serverId, error) => {
      const { code, message } = toPlainError(error);
      this.#init.audit?.emit(sessionAuditEvent(this.capability, 'toolwarden', { event: 'mcp-list', serverId }, 'error', message, code));
    });
    return [...local, ...remote];
  }

  /** The names a rule or call may use in this session: built-in tools and its host tools. */
  async knownToolNames(): Promise<string[]> {
    return [...BUILTIN_TOOL_NAMES, ...(await this.#init.hostTools()).keys()];
  }

  /**
   * Calls a tool. Never throws for a tool failure: it resolves with `isError: true` and a stable `code`. The call
   * ends by `toolTimeoutMs` (TIMEOUT), when `options.signal` aborts (ABORTED) or when the session closes
   * (SESSION_CLOSED); its work is stopped each time.
   * @example await session.call('read_file', { path: 'src/a.ts' }, { signal: AbortSignal.timeout(5_000) })
   */
  async call(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolResult> {
    const started = performance.now();
    const done = await this.#call(name, args, options);
    const { audit } = this.#init;
    if (audit !== undefined) audit.emit(callAuditEvent(this.capability, name, args, done.admission, done.result, performance.now() - started, done.refusal));
    return done.result;
  }

  /**
   * Subscribes to changes of this session's tool list (an MCP server it may use announced new or removed tools);
   * call {@link listTools} again when it fires. Returns the unsubscribe function.
   */
  onToolsChanged(listener: () => void): () => void {
    this.#toolListeners.add(listener);
    return () => this.#toolListeners.delete(listener);
  }

  /** @internal the runtime tells the session that a server it may use changed its tools. */
  notifyToolsChanged(): void {
    for (const listener of this.#toolListeners) {
      try {
        listener();
      } catch {
        // A host listener's bug must not break the notification for the others.
      }
    }
  }

  /**
   * Opens a child session that may only narrow this one's capability; asking for more throws ESCALATION, an
   * unknown or malformed field INVALID_OPTIONS. The child closes when this session closes.
   */
  async attenuate(request: NarrowRequest): Promise<Session> {
    if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', `session ${this.id} is closed`);
    const child = await this.#init.openChild(this, request);
    // Closed while the child was opening: the child must not outlive it.
    if (this.#closed) {
      await child.close();
      throw new ToolwardenError('SESSION_CLOSED', `session ${this.id} closed while its child was opening`);
    }
    this.#children.add(child);
    child.#detach = () => this.#children.delete(child);
    return child;
  }

  /**
   * Closes the session and its children first: calls in flight end with SESSION_CLOSED, workers stop and every
   * process they started is killed. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#toolListeners.clear();
    this.#detach?.();
    for (const call of this.#active) call.abort(new ToolwardenError('SESSION_CLOSED', `session ${this.id} closed during the call`));
    await Promise.all([...this.#children].map((child) => child.close()));
    this.#services.permissions.mcp.close();
    const worker = await this.#worker?.catch(() => undefined);
    await worker?.terminate();
    await this.#services.bash.close();
    await this.#init.onClose(this);
  }

  async #call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallDone> {
    if (this.#closed) return notAdmitted(errorResult('SESSION_CLOSED', `session ${this.id} is closed; open a new one`));
    if (typeof name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args)) {
      return notAdmitted(errorResult('INVALID_ARGS', 'call(name, args) takes a tool name and an arguments object'));
    }
    const signal = (options as CallOptions | null | undefined)?.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) return notAdmitted(errorResult('INVALID_ARGS', 'call options.signal must be an AbortSignal'));
    if (signal?.aborted) return notAdmitted(errorResult('ABORTED', `${name} was aborted before it started`));
    const limit = this.capability.limits.maxConcurrentCalls;
    if (this.#inFlight >= limit) {
      return notAdmitted(errorResult('CALL_LIMIT', `session ${this.id} already has ${limit} calls in flight (limits.maxConcurrentCalls)`));
    }
    this.#inFlight += 1;
    const call = new InFlightCall(name, this.capability.limits.toolTimeoutMs, signal);
    this.#active.add(call);
    const done: CallDone = { result: EMPTY_RESULT, admission: NOT_ADMITTED };
    try {
      done.result = await call.settle(this.#run(name, args, call, done));
      return done;
    } finally {
      call.end();
      this.#active.delete(call);
      this.#inFlight -= 1;
    }
  }

  /**
   * Admits and runs a call: on the main thread for direct tools, else in the tool host, watched for overrunning. What
   * decided it goes into `done` as each step learns it (the audit reads it once the call has ended).
   */
  async #run(name: string, args: Record<string, unknown>, call: InFlightCall, done: CallDone): Promise<ToolResult> {
    try {
      const turn = mainThreadTurn();
      if (turn) await turn;
      // Ended while it waited for its turn (aborted, timed out, the session closed): its result is given already.
      if (call.ended) return errorResult('ABORTED', `${name} ended before it was admitted`);
      const admission = await admitCall(this.#services, name, args, call);
      done.admission = admission;
      if (admission.refusal) return admission.refusal;
      if (this.#closed) return errorResult('SESSION_CLOSED', `session ${this.id} closed during the call`);
      if (admission.direct) {
        const outcome = await admission.direct();
        if (outcome.admitted !== undefined) done.admission = outcome.admitted;
        if (outcome.refusal !== undefined) done.refusal = outcome.refusal;
        return outcome.result;
      }
      let worker = this.#ready;
      if (!worker?.alive) {
        const waitStarted = performance.now();
        worker = await this.#readyWorker();
        // Waiting for a fresh worker to start and load its host tool modules is not the tool's time.
        call.extend(performance.now() - waitStarted);
      }
      // Ended while the worker was being bound: its result has been given already, and its work must not start.
      if (call.ended) return errorResult('ABORTED', `${name} ended before it reached its worker`);
      // The call's broker capability: its requests are served only under this id, in its context, until it ends.
      const grant = this.#services.calls.enter(name, args, call);
      try {
        const work = worker.call(name, args, call, grant.callId, admission.prefetched);
        if (!call.ended) this.#watch(call, worker, grant.activity, work);
        const result = await work;
        if (grant.guardRule !== undefined) done.refusal = { guardRule: grant.guardRule };
        return result;
      } finally {
        this.#services.calls.leave(grant.callId);
      }
    } catch (error) {
      const plain = toPlainError(error);
      return errorResult(plain.code, plain.message);
    }
  }

  /**
   * At the call's deadline, or when it ends early, the host is stopped only if its own code is what still runs (see
   * watchOverrun); a call that ends normally costs nothing here.
   */
  #watch(call: InFlightCall, worker: ToolHostConnection, activity: { pending: number; answeredAt: number }, work: Promise<ToolResult>): void {
    let settled = false;
    const markSettled = (): void => void (settled = true);
    work.then(markSettled, markSettled);
    const watch = (): void => {
      if (settled) return;
      watchOverrun({
        settled: () => settled || !worker.alive,
        brokerBusy: () => activity.pending,
        brokerAnsweredAt: () => activity.answeredAt,
        stop: () => void worker.terminate({ reason: 'timeout', detail: `${call.name} ran past ${call.limit} in its worker` }),
      });
    };
    call.atDeadline(watch);
    call.whenEnded(watch);
  }

  /** The live worker once its host tool modules have loaded (a module that failed to load throws here). */
  async #readyWorker(): Promise<ToolHostConnection> {
    const worker = await this.#currentWorker();
    let loaded = this.#loaded.get(worker);
    if (loaded === undefined) {
      loaded = worker.describeHostTools().then(() => undefined);
      this.#loaded.set(worker, loaded);
    }
    await loaded;
    if (worker.alive) this.#ready = worker;
    return worker;
  }

  /** The live worker, replacing one that died or timed out. */
  async #currentWorker(): Promise<ToolHostConnection> {
    const existing = await this.#worker?.catch(() => undefined);
    if (existing?.alive) return existing;
    const next = this.#bindWorker();
    this.#worker = next;
    return next;
  }

  /** A worker thread, or a child process under Node's permission model when the capability says `isolation: 'process'`. */
  async #bindWorker(): Promise<ToolHostConnection> {
    const { capability } = this;
    const session = {
      id: this.id,
      workspaceRoot: capability.workspaceRoot,
      readMaxChars: capability.limits.readMaxChars,
      toolTimeoutMs: capability.limits.toolTimeoutMs,
      toolModules: [...capability.toolModules],
      ...(capability.user === undefined ? {} : { user: capability.user }),
    };
    // A replaced worker takes nothing with it: the session's processes belong to the session, not to its worker. Its
    // successor is bound at once, so it loads its host tool modules before the next call, not inside its deadline.
    const onEnd = (end: WorkerEnd): void => {
      if (end.reason !== 'closed' && !this.#closed) void this.#currentWorker().catch(() => undefined);
    };
    return new ToolHostConnection(await this.#init.startHost(), this.#services.brokerServer, session, onEnd);
  }
}

/** A call's outcome as its steps learn it: the result, admit()'s verdict (or bash's), and what its work refused. */
interface CallDone {
  result: ToolResult;
  admission: { decision: 'allow' | 'deny'; rule?: string | undefined };
  refusal?: WorkRefusal;
}

const EMPTY_RESULT: ToolResult = Object.freeze({ content: [] }) as unknown as ToolResult;

function notAdmitted(result: ToolResult): CallDone {
  return { result, admission: NOT_ADMITTED };
}
