import { ToolwardenError, toPlainError } from '../../src/errors.js';
import type { Capability } from '../../src/capability/capability.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';
import type { Prefetched } from '../../src/protocol.js';
import type { BrokerServer } from '../broker/broker-server.js';
import type { CallTracker } from '../broker/call-tracker.js';
import { ToolHostConnection, type WorkerEnd } from '../tool-hosts/tool-host-connection.js';
import { workerLink } from '../tool-hosts/worker-link.js';
import { processLink } from '../tool-hosts/process-link.js';
import type { ToolProcess } from '../isolation/start-tool-process.js';
import type { IdleWorker } from '../tool-hosts/worker-pool.js';
import type { NarrowRequest } from '../../src/capability/narrow.js';
import type { CallContext } from '../calls/call-context.js';
import { mainThreadTurn } from '../calls/main-thread-turn.js';
import { InFlightCall } from '../calls/in-flight-call.js';
import { watchOverrun } from '../calls/overrun-watch.js';

/** What decided a call (or, for bash, one of its commands), as the audit log records it. */
export interface AdmissionReport {
  decision: 'allow' | 'deny';
  /** The rule that decided. */
  rule: string;
  /** The sentence admit() gave for the decision. */
  reason?: string;
}

/** The runtime's verdict on a call before it reaches the worker. */
export interface Admission {
  decision: 'allow' | 'deny';
  /** The rule that decided, for the audit log. */
  rule?: string;
  /** The sentence admit() gave for the decision. */
  reason?: string;
  /** Set when the call may not run. */
  refusal?: ToolResult;
  /** Broker answers to send with the call (saves the worker a round trip). */
  prefetched?: Prefetched;
  /**
   * For tools whose code is the broker's own (MCP tools, web_fetch, bash): runs the call on the main thread. A tool
   * admitted there (bash, per command) tells `report` what admit() decided, which becomes the call's admission.
   */
  direct?: (report: (admitted: AdmissionReport) => void) => Promise<ToolResult>;
}

/** Options of one {@link Session.call}. */
export interface CallOptions {
  /**
   * Aborting it ends the call with ABORTED at once and stops its work: the command's process group is killed, the
   * walk's thread is replaced, an MCP request is cancelled upstream, an approver's wait ends.
   */
  signal?: AbortSignal;
}

/** What a session needs from its runtime; kept narrow so the session holds no runtime internals. */
export interface SessionHost {
  takeWorker(heapMb: number): Promise<IdleWorker>;
  /** Starts an isolated tool host process, inside the OS sandbox when the mode and the machine allow. */
  startToolProcess(moduleUrls: readonly string[], heapMb: number, sandbox: Capability['sandbox']): Promise<ToolProcess>;
  /** Tools visible to this capability, in listing form. */
  listTools(capability: Capability): Promise<ToolInfo[]>;
  /** Decides a call before it reaches the worker: visibility, arguments, rules, approvals (bounded by the call's context). */
  admit(session: Session, name: string, args: Record<string, unknown>, context: CallContext): Promise<Admission>;
  /** Records a finished call in the audit stream. */
  record(session: Session, name: string, args: Record<string, unknown>, result: ToolResult, durationMs: number, admission: Admission): void;
  attenuate(parent: Session, request: NarrowRequest): Promise<Session>;
  closed(session: Session): Promise<void>;
}

/**
 * One agent session: a capability, a worker that runs its tools, and the broker that does its I/O.
 * Tool failures resolve as results with a code; only misuse of the API throws.
 */
export class Session {
  /** Session id (also the token's id). */
  readonly id: string;
  /** The verified capability this session runs under, deeply frozen: what it allows cannot change after the open. */
  readonly capability: Capability;
  #token: string | (() => string);
  readonly #host: SessionHost;
  readonly #broker: BrokerServer;
  #worker: Promise<ToolHostConnection> | undefined;
  #closed = false;
  #inFlight = 0;
  readonly #calls: CallTracker;
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
  /** When {@link token} expires, in epoch seconds (its `exp`); a child's token never outlives it. */
  readonly tokenExpiresAt: number;

  /** @internal created by the runtime */
  constructor(capability: Capability, token: string | (() => string), host: SessionHost, broker: BrokerServer, calls: CallTracker, tokenExpiresAt: number) {
    this.tokenExpiresAt = tokenExpiresAt;
    this.#calls = calls;
    this.id = capability.sid;
    this.capability = capability;
    this.#token = token;
    this.#host = host;
    this.#broker = broker;
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

  /** @internal binds the first worker; the runtime awaits this in openSession. */
  async start(): Promise<void> {
    await this.#currentWorker();
  }

  /** Tools this session may call, as `{ name, description, inputSchema }`; nothing else is visible. */
  async listTools(): Promise<ToolInfo[]> {
    if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', `session ${this.id} is closed`);
    return this.#host.listTools(this.capability);
  }

  /**
   * Calls a tool. Never throws for a tool failure: it resolves with `isError: true` and a stable `code`. The call
   * ends by `toolTimeoutMs` (TIMEOUT), when `options.signal` aborts (ABORTED) or when the session closes
   * (SESSION_CLOSED); its work is stopped each time.
   * @example await session.call('read_file', { path: 'src/a.ts' }, { signal: AbortSignal.timeout(5_000) })
   */
  async call(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolResult> {
    const started = performance.now();
    const admission: Admission = { decision: 'allow' };
    const result = await this.#call(name, args, admission, options);
    this.#host.record(this, name, args, result, performance.now() - started, admission);
    return result;
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
    const child = await this.#host.attenuate(this, request);
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
    const worker = await this.#worker?.catch(() => undefined);
    await worker?.terminate();
    await this.#host.closed(this);
  }

  async #call(name: string, args: Record<string, unknown>, admission: Admission, options: CallOptions): Promise<ToolResult> {
    if (this.#closed) return errorResult('SESSION_CLOSED', `session ${this.id} is closed; open a new one`);
    if (typeof name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args)) {
      return errorResult('INVALID_ARGS', 'call(name, args) takes a tool name and an arguments object');
    }
    const signal = (options as CallOptions | null | undefined)?.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) return errorResult('INVALID_ARGS', 'call options.signal must be an AbortSignal');
    if (signal?.aborted) return errorResult('ABORTED', `${name} was aborted before it started`);
    const limit = this.capability.limits.maxConcurrentCalls;
    if (this.#inFlight >= limit) {
      return errorResult('CALL_LIMIT', `session ${this.id} already has ${limit} calls in flight (limits.maxConcurrentCalls)`);
    }
    this.#inFlight += 1;
    const call = new InFlightCall(name, this.capability.limits.toolTimeoutMs, signal);
    this.#active.add(call);
    try {
      return await call.settle(this.#run(name, args, admission, call));
    } finally {
      call.end();
      this.#active.delete(call);
      this.#inFlight -= 1;
    }
  }

  /** Admits and runs a call: on the main thread for direct tools, else in the worker, watched for overrunning. */
  async #run(name: string, args: Record<string, unknown>, admission: Admission, call: InFlightCall): Promise<ToolResult> {
    try {
      const turn = mainThreadTurn();
      if (turn) await turn;
      // Ended while it waited for its turn (aborted, timed out, the session closed): its result is given already.
      if (call.ended) return errorResult('ABORTED', `${name} ended before it was admitted`);
      Object.assign(admission, await this.#host.admit(this, name, args, call.context));
      if (admission.refusal) return admission.refusal;
      if (this.#closed) return errorResult('SESSION_CLOSED', `session ${this.id} closed during the call`);
      if (admission.direct) return await admission.direct((admitted) => Object.assign(admission, admitted));
      let worker = this.#ready;
      if (!worker?.alive) {
        const waitStarted = performance.now();
        worker = await this.#readyWorker();
        // Waiting for a fresh worker to start and load its host tool modules is not the tool's time.
        call.extend(performance.now() - waitStarted);
      }
      // Ended while the worker was being bound: its result has been given already, and its work must not start.
      if (call.ended) return errorResult('ABORTED', `${name} ended before it reached its worker`);
      // The call's broker capability: its requests are served only under this id, in its context, until the call ends
      // (early or not).
      const grant = this.#calls.enter(name, args, call.context);
      call.whenEnded(grant.leave);
      const work = worker.call(name, args, this.capability.limits.toolTimeoutMs, grant.callId, admission.prefetched);
      let settled = false;
      const markSettled = (): void => void (settled = true);
      work.then(markSettled, markSettled);
      // At the deadline, or when the call is aborted, the worker is stopped only if its own code is what still runs.
      const watch = (): void =>
        watchOverrun({
          settled: () => settled || !worker.alive,
          brokerBusy: () => grant.activity.pending,
          brokerAnsweredAt: () => grant.activity.answeredAt,
          stop: () => void worker.terminate({ reason: 'timeout', detail: `${name} ran past ${call.context.limit} in its worker` }),
        });
      call.atDeadline(watch);
      call.whenEnded(watch);
      return await work;
    } catch (error) {
      const plain = toPlainError(error);
      return errorResult(plain.code, plain.message);
    }
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
    const heapMb = this.capability.limits.workerHeapMb;
    const session = {
      id: this.id,
      workspaceRoot: this.capability.workspaceRoot,
      readMaxChars: this.capability.limits.readMaxChars,
      toolTimeoutMs: this.capability.limits.toolTimeoutMs,
      toolModules: [...this.capability.toolModules],
      ...(this.capability.user === undefined ? {} : { user: this.capability.user }),
    };
    // A replaced worker takes nothing with it: the session's processes belong to the session, not to its worker. Its
    // successor is bound at once, so it loads its host tool modules before the next call, not inside its deadline.
    const onEnd = (end: WorkerEnd): void => {
      if (end.reason !== 'closed' && !this.#closed) void this.#currentWorker().catch(() => undefined);
    };
    const link =
      this.capability.isolation === 'process'
        ? processLink(await this.#host.startToolProcess(session.toolModules, heapMb, this.capability.sandbox))
        : workerLink(await this.#host.takeWorker(heapMb));
    return new ToolHostConnection(link, this.#broker, session, onEnd);
  }
}
