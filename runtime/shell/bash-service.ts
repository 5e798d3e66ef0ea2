import fs from 'node:fs';
import path from 'node:path';
import { ToolwardenError, toPlainError } from '../../src/errors.js';
import type { Capability } from '../../src/capability/capability.js';
import { errorResult, okResult, type ToolResult } from '../../src/tool-result.js';
import { DEFAULT_SANDBOX_HOME, type Sandbox, type SandboxScope } from '../../src/sandbox/index.js';
import { findLimitRefusal } from '../../src/sandbox/limit-refusal.js';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { describeFindings, startBlockedGuard, type BlockedGuard, type BlockedReport } from '../sandbox/blocked-guard.js';
import { removeStubLater } from '../sandbox/blocked-scan.js';
import { createSessionCgroups, type SessionCgroups } from '../sandbox/session-cgroups.js';
import { sessionMemoryCap } from '../../src/sandbox/cgroups.js';
import { canonicalize } from '../sandbox/host-sys.js';
import { SessionZygote } from '../sandbox/session-zygote.js';
import type { ZygoteSlots } from '../sandbox/zygote-slots.js';
import { ProcessRegistry, type ExecOutcome, type ProcessFinding, type ProcessGuard, type ProcessSnapshot, type ShellSpec } from '../processes/index.js';
import { ForegroundCommands } from '../processes/foreground.js';
import { abortReason, timeLeftMs, type CallContext } from '../calls/call-context.js';
import type { SessionEgress } from '../net/egress/session-egress.js';
import type { SessionPermissions } from '../session/session-permissions.js';
import { describeCommand } from '../policy/admission-request.js';
import type { AdmissionReport } from '../calls/call-plan.js';
import { parseBashArgs, type BashRequest } from './bash-args.js';
import { formatExecResult } from './format-exec.js';

/** What a session's bash service is built from. */
export interface BashServiceOptions {
  capability: Capability;
  /** The session's permissions: the path guard and the rules every command is admitted by. */
  permissions: SessionPermissions;
  sandbox: Sandbox;
  /** Set when `auto` found no OS sandbox: shown once in the first bash result and logged. */
  sandboxWarning: string | undefined;
  encoding: string;
  shell: ShellSpec;
  /** The children's environment, built on first use. */
  env: () => Record<string, string>;
  warn(message: string): void;
  /** The session's egress proxy (a host list in `net` and a sandbox): commands reach the hosts through it; closed with the service. */
  egress?: SessionEgress;
  /** The runtime's cap on live zygotes and their idle time (see ZygoteSlots). */
  zygoteSlots?: ZygoteSlots;
}

/**
 * One session's bash tool on the main thread: every command is parsed and path-checked, put through the rules
 * and approvals, then run (inside the OS sandbox when there is one) in its own process group. Foreground and
 * background processes belong to the session (not to its worker) and die with it; a foreground command also dies
 * with its call (abort, or the call's deadline), killed by the code that spawned it.
 */
export class BashService {
  readonly #options: BashServiceOptions;
  #registry: ProcessRegistry | undefined;
  readonly #foreground = new ForegroundCommands();
  #warned = false;
  #closed = false;
  /** Stub mount points of this session's running sandboxes, and how many of them mount each. */
  readonly #stubUsers = new Map<string, number>();
  readonly #stubsHeld = new WeakMap<BlockedGuard, readonly string[]>();
  /** The session's cgroups once made (null: this host allows none). */
  #cgroups: SessionCgroups | null | undefined;
  /** The memory cgroup's OOM kills already attributed to a command. */
  #oomKillsSeen = 0;
  /** Stub removals under way: a new guard's walk waits for them, or it could take a stub for a path of its own. */
  readonly #stubRemovals = new Set<Promise<unknown>>();
  readonly #running: string[] = [];

  /** The session's standing sandbox, when the sandbox offers one (see SessionZygote). */
  readonly #zygote: SessionZygote | undefined;

  constructor(options: BashServiceOptions) {
    this.#options = options;
    const support = options.sandbox.zygote;
    this.#zygote = support === undefined ? undefined : new SessionZygote({
      support,
      hold: (paths) => this.#holdStubs(paths),
      release: (paths) => this.#releaseStubPaths(paths),
      warn: options.warn,
      ...(options.zygoteSlots === undefined ? {} : { slots: options.zygoteSlots }),
    });
  }

  /**
   * Runs one bash call within its call's context (approval wait, command deadline, abort); never throws. A command
   * (exec, start) is admitted here, and `report` learns what admit() and the approver decided, for the audit.
   */
  async handle(args: Record<string, unknown>, context: CallContext, report: (admitted: AdmissionReport) => void = () => {}): Promise<ToolResult> {
    try {
      if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', 'the session is closed');
      if (!this.#options.capability.tools.includes('bash')) {
        const reason = "running commands needs 'bash' in the session's tools";
        report({ decision: 'deny', rule: 'capability', reason });
        throw new ToolwardenError('TOOL_NOT_ALLOWED', reason);
      }
      return this.#withWarning(await this.#run(parseBashArgs(args), args, context, report));
    } catch (error) {
      const plain = toPlainError(error);
      // details carry the deciding rule of a refusal, for the caller (the audit has it from report).
      return errorResult(plain.code, plain.message, plain.details);
    }
  }

  /** Background processes of the session still running. */
  get runningProcesses(): number {
    return this.#registry?.list().filter((process) => process.status === 'running').length ?? 0;
  }

  /** Snapshots of the session's background processes, oldest first, for an operator (no rules, no audit). */
  listProcesses(): ProcessSnapshot[] {
    return this.#registry?.list() ?? [];
  }

  /** The last `chars` UTF-16 units a background process wrote, for an operator. @throws PROCESS_NOT_FOUND */
  processTail(processId: string, chars: number): string {
    const registry = this.#operatorRegistry(processId);
    const end = registry.logs(processId, Number.MAX_SAFE_INTEGER).nextOffset;
    return registry.logs(processId, Math.max(0, end - chars)).text;
  }

  /** Stops a background process as `bash stop` does (SIGTERM, then SIGKILL), for an operator. @throws PROCESS_NOT_FOUND */
  stopProcess(processId: string): Promise<ProcessSnapshot> {
    return this.#operatorRegistry(processId).stop(processId);
  }

  #operatorRegistry(processId: string): ProcessRegistry {
    if (this.#registry === undefined) throw new ToolwardenError('PROCESS_NOT_FOUND', `no background process ${JSON.stringify(processId)} in this session`);
    return this.#registry;
  }

  /** Kills every process the session started, foreground and background (whole groups), refuses later calls, and waits. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([this.#foreground.close(), this.#registry?.closeAll()]);
    await this.#zygote?.close();
    await this.#options.egress?.close();
    await this.#cgroups?.close();
  }

  /** The commands running now (exec calls and background processes), which the egress audit names. */
  runningCommands(): string[] {
    const background = this.#registry?.list().filter((p) => p.status === 'running').map((p) => p.command) ?? [];
    return [...this.#running, ...background];
  }

  async #run(request: BashRequest, args: Record<string, unknown>, context: CallContext, report: (admitted: AdmissionReport) => void): Promise<ToolResult> {
    const limits = this.#options.capability.limits;
    switch (request.action) {
      case 'exec': {
        // The approval wait is bounded by the call's deadline; the command's own timeout starts when it is spawned.
        const { cwd, rule } = await this.#admitCommand(request.command, request.cwd, args, context, report);
        const ownMs = Math.min(request.timeoutMs ?? limits.commandTimeoutMs, limits.commandTimeoutMs);
        const leftMs = timeLeftMs(context, `command "${request.command}"`);
        const timeoutMs = Math.min(ownMs, leftMs);
        await this.#stubsRemoved();
        const guard = this.#options.sandbox.kind === 'none' ? undefined : this.#blockedGuard();
        // The walk above decides whether the session's zygote still has the right mounts (else a fresh one starts).
        const lease = guard === undefined ? undefined : await this.#zygote?.lease(guard, this.#sandboxScope(guard), this.#stubsHeld.get(guard) ?? []);
        this.#running.push(request.command);
        const outcome = await this.#foreground.run({
          command: request.command,
          cwd,
          env: this.#options.env(),
          timeoutMs,
          maxOutputChars: limits.maxProcessOutputChars,
          encoding: this.#options.encoding,
          shell: this.#options.shell,
          wrap: guard === undefined ? this.#wrap : (argv, at) => this.#options.sandbox.wrap(argv, this.#sandboxScope(guard), at),
          signal: context.signal,
          ...(lease === undefined ? {} : { spawn: lease.spawn }),
        }).catch(async (error: unknown) => {
          // A zygote that died before it reported the spawn: the command may have run, so it is checked like one.
          const lost = lease?.zygote.lost;
          if (lost === undefined || guard === undefined) throw error;
          const finding = this.#blockedFinding(guard.finish(), 'a sandboxed command');
          await this.#releaseStubs(guard);
          throw new ToolwardenError('SANDBOX_LOST', `${lostMessage(lost)}: ${request.command}${finding === undefined ? '' : `; ${finding.message}`}`);
        }).finally(() => {
          this.#running.splice(this.#running.indexOf(request.command), 1);
          lease?.release();
        });
        if (outcome.aborted) {
          if (guard !== undefined) {
            guard.finish();
            await this.#releaseStubs(guard);
          }
          // The call's signal (abort, close, its end), or the session's close of its foreground commands.
          const reason = context.signal.aborted ? abortReason(context.signal, 'the command') : new ToolwardenError('SESSION_CLOSED', 'the session closed');
          throw new ToolwardenError(reason.code, `${reason.message}; the command's process group was killed: ${request.command}`);
        }
        const limit = ownMs <= leftMs ? `${timeoutMs} ms` : `its call's deadline (${context.limit})`;
        const formatted = this.#withLimitRefusal(formatExecResult(request.command, outcome, limit, []), outcome);
        const lost = outcome.timedOut ? undefined : lease?.zygote.lost;
        const result = lost === undefined ? formatted : sandboxLost(formatted, lost);
        if (guard === undefined) return withRule(result, rule);
        const checked = this.#withBlockedCheck(result, guard.finish());
        await this.#releaseStubs(guard);
        return withRule(checked, rule);
      }
      case 'start': {
        const { cwd, rule } = await this.#admitCommand(request.command, request.cwd, args, context, report);
        await this.#stubsRemoved();
        // The process's guard is made synchronously inside start(), so no removal can begin in between.
        const snapshot = await this.#processes().start(request.command, cwd);
        return okResult(`Started ${snapshot.processId} (pid ${snapshot.pid ?? 'unknown'}): ${request.command}`, { ...snapshot, admittedBy: rule });
      }
      case 'status': {
        const snapshot = this.#processes().status(request.processId);
        return withFinding(okResult(describeSnapshot(snapshot), { ...snapshot }), snapshot.finding);
      }
      case 'logs': {
        const page = this.#processes().logs(request.processId, request.offset, request.limit);
        const note = page.truncated ? `[earlier output was dropped: the buffer now starts at offset ${page.startOffset}]\n` : '';
        return withFinding(okResult(`${note}${page.text}`, { ...page }), page.finding);
      }
      case 'write': {
        await this.#processes().write(request.processId, request.input);
        return okResult(`Wrote ${request.input.length} characters to ${request.processId}`, { processId: request.processId, chars: request.input.length });
      }
      case 'stop': {
        const snapshot = await this.#processes().stop(request.processId);
        return withFinding(okResult(describeSnapshot(snapshot), { ...snapshot }), snapshot.finding);
      }
      case 'list': {
        const processes = this.#registry?.list() ?? [];
        const text = processes.length > 0 ? processes.map(describeSnapshot).join('\n') : 'No background processes';
        return okResult(text, { processes });
      }
    }
  }

  /**
   * The working directory through the guard and the static check, then admit() with the rules and approvals; returns
   * the checked working directory and the deciding rule, or throws the refusal made from admit()'s data.
   */
  async #admitCommand(command: string, cwdInput: string | undefined, args: Record<string, unknown>, context: CallContext, report: (admitted: AdmissionReport) => void): Promise<{ cwd: string; rule: string }> {
    const { permissions, sandbox, env } = this.#options;
    const { paths } = permissions;
    const checked = await describeCommand(paths, command, cwdInput, env()['HOME'] ?? paths.scope.workspaceRoot, sandbox.kind !== 'none');
    const outcome = await permissions.admitCommand(checked.request, args, context);
    report({ decision: outcome.decision, rule: outcome.rule, reason: outcome.reason });
    if (outcome.decision === 'deny') {
      // A cwd the guard refused names no rule in the result; the static check names itself and the deciding path.
      const cwdRefused = checked.request.subject === undefined;
      const details = cwdRefused ? undefined : { rule: outcome.rule, ...(checked.decidingPath === undefined ? {} : { path: checked.decidingPath }) };
      throw new ToolwardenError(outcome.code ?? 'POLICY_DENIED', outcome.reason, details);
    }
    return { cwd: checked.cwd, rule: outcome.rule };
  }

  // Without an OS sandbox nothing is mounted, so there is no guard to start.
  readonly #wrap = (argv: string[], cwd: string): string[] => this.#options.sandbox.wrap(argv, this.#sandboxScope(), cwd);

  /** A background process gets the same read-only mounts and stubs as exec, and the same check once it ended. */
  readonly #processGuard = (command: string): ProcessGuard => {
    const guard = this.#blockedGuard();
    return {
      wrap: (argv, cwd) => this.#options.sandbox.wrap(argv, this.#sandboxScope(guard), cwd),
      finish: async () => {
        const finding = this.#blockedFinding(guard.finish(), `a sandboxed background process ("${command}")`);
        await this.#releaseStubs(guard);
        return finding;
      },
    };
  };

  /** A guard for one sandboxed command, holding its stubs and any of another running command's it will mount. */
  #blockedGuard(): BlockedGuard {
    const { capability, permissions: { paths } } = this.#options;
    const root = canonicalize(capability.workspaceRoot);
    const guard = startBlockedGuard(root, paths.scope.blocklist ?? DEFAULT_BLOCKLIST, capability.excludedPaths.map((p) => path.join(root, p)));
    const held = [...guard.stubs, ...guard.existing.filter((p) => this.#stubUsers.has(p))];
    this.#holdStubs(held);
    this.#stubsHeld.set(guard, held);
    return guard;
  }

  /**
   * Removes (off the main thread) the stubs no other running command of the session mounts any more: removing one
   * while another sandbox mounts it would unmount it there, or fail that sandbox's start.
   */
  async #releaseStubs(guard: BlockedGuard): Promise<void> {
    const held = this.#stubsHeld.get(guard) ?? [];
    this.#stubsHeld.delete(guard);
    await this.#releaseStubPaths(held);
  }

  /** Counts `paths` as mounted by one more running sandbox (a command's, or the session's zygote). */
  #holdStubs(paths: readonly string[]): void {
    for (const stub of paths) this.#stubUsers.set(stub, (this.#stubUsers.get(stub) ?? 0) + 1);
  }

  async #releaseStubPaths(paths: readonly string[]): Promise<void> {
    const unused: string[] = [];
    for (const stub of paths) {
      const users = (this.#stubUsers.get(stub) ?? 1) - 1;
      if (users > 0) this.#stubUsers.set(stub, users);
      else {
        this.#stubUsers.delete(stub);
        unused.push(stub);
      }
    }
    const removal = Promise.all(unused.map(removeStubLater));
    this.#stubRemovals.add(removal);
    try {
      await removal;
    } finally {
      this.#stubRemovals.delete(removal);
    }
  }

  async #stubsRemoved(): Promise<void> {
    while (this.#stubRemovals.size > 0) await Promise.all(this.#stubRemovals);
  }

  /** A command that created or changed a blocked path becomes BLOCKED_PATH_WRITTEN (what it created is gone). */
  #withBlockedCheck(result: ToolResult, report: BlockedReport): ToolResult {
    const finding = this.#blockedFinding(report, 'a sandboxed command');
    if (finding === undefined) return report.truncated ? { ...result, structuredContent: { ...result.structuredContent, blockedScanTruncated: true } } : result;
    return withFinding(result, finding);
  }

  /** BLOCKED_PATH_WRITTEN for a check that found something, logged to the audit; undefined when it found nothing. */
  #blockedFinding(report: BlockedReport, who: string): ProcessFinding | undefined {
    if (report.findings.length === 0) return undefined;
    const described = describeFindings(report.findings);
    this.#options.warn(`${who} wrote blocked paths: ${described}`);
    const details = { ...(report.truncated ? { blockedScanTruncated: true } : {}), blockedPaths: report.findings.map((f) => ({ ...f })) };
    return { code: 'BLOCKED_PATH_WRITTEN', message: `the command wrote paths on the blocklist: ${described}`, details };
  }

  /** A sandboxed command that died of one of its limits becomes an error with that limit's code. */
  #withLimitRefusal(result: ToolResult, outcome: ExecOutcome): ToolResult {
    if (this.#options.sandbox.kind === 'none' || outcome.timedOut) return result;
    const scope = this.#sandboxScope();
    if (scope.limits === undefined) return result;
    const tmpDirs = [...new Set(['/tmp', scope.home ?? DEFAULT_SANDBOX_HOME])];
    // Only a failed command reads the memory cgroup's count: the OOM killer may have taken a child, not the leader.
    const cap = this.#cgroups?.memoryBytes;
    const end = cap !== undefined && outcome.exitCode !== 0 && this.#oomKilledSinceLast() ? { ...outcome, oomKilledAtBytes: cap } : outcome;
    const refusal = findLimitRefusal(end, scope.limits, { tmpDirs, workspaceHasRoom: hasRoom(scope.workspaceRoot) });
    if (refusal === undefined) return result;
    return errorResult(refusal.code, `${refusal.message}\n${result.content[0]?.text ?? ''}`, { ...result.structuredContent, limit: refusal.code });
  }

  #sandboxScope(guard?: BlockedGuard): SandboxScope {
    const { capability } = this.#options;
    const { limits } = capability;
    const cgroups = this.#sessionCgroups();
    return {
      ...(cgroups === undefined ? {} : { cgroupProcs: cgroups.procsFiles }),
      workspaceRoot: capability.workspaceRoot,
      readRoots: capability.readRoots,
      blockedInWorkspace: guard?.existing ?? [],
      stubsInWorkspace: guard?.stubs ?? [],
      net: capability.net === false ? false : [...capability.net],
      ...(this.#options.egress === undefined ? {} : { egress: this.#options.egress.scope }),
      limits: { tmpBytes: limits.sandboxTmpBytes, maxProcesses: limits.commandMaxProcesses, memoryBytes: limits.commandMemoryBytes, cpuSeconds: limits.commandCpuSeconds },
    };
  }

  /**
   * The session's cgroups, made at its first sandboxed command where this host allows them: every sandbox of the
   * session joins them, so `commandMaxProcesses` bounds their tasks together even for the host's root (whom
   * RLIMIT_NPROC does not bind), and their memory together, shared mappings and tmpfs pages included (which
   * RLIMIT_DATA does not count), is bounded by {@link sessionMemoryCap}. Removed at close.
   */
  #sessionCgroups(): SessionCgroups | undefined {
    if (this.#options.sandbox.kind === 'none' || this.#closed) return this.#cgroups ?? undefined;
    if (this.#cgroups === undefined) {
      const { limits } = this.#options.capability;
      this.#cgroups = createSessionCgroups({ maxTasks: limits.commandMaxProcesses, memoryBytes: sessionMemoryCap(limits) }) ?? null;
    }
    return this.#cgroups ?? undefined;
  }

  /** Whether the session's memory cgroup killed a process since the last command that was told so. */
  #oomKilledSinceLast(): boolean {
    const kills = this.#cgroups?.oomKills();
    if (kills === undefined || kills <= this.#oomKillsSeen) return false;
    this.#oomKillsSeen = kills;
    return true;
  }

  #processes(): ProcessRegistry {
    if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', 'the session is closed');
    const limits = this.#options.capability.limits;
    this.#registry ??= new ProcessRegistry({
      maxProcesses: limits.maxProcesses,
      maxOutputChars: limits.maxProcessOutputChars,
      stopGraceMs: limits.processStopGraceMs,
      encoding: this.#options.encoding,
      shell: this.#options.shell,
      env: this.#options.env(),
      wrap: this.#wrap,
      ...(this.#options.sandbox.kind === 'none' ? {} : { guard: this.#processGuard }),
    });
    return this.#registry;
  }

  #withWarning(result: ToolResult): ToolResult {
    const warning = this.#options.sandboxWarning;
    if (!warning || this.#warned) return result;
    this.#warned = true;
    this.#options.warn(warning);
    const [first, ...rest] = result.content;
    const text = `[toolwarden: ${warning}]\n${first?.text ?? ''}`;
    return { ...result, content: [{ type: 'text', text }, ...rest], structuredContent: { ...result.structuredContent, sandboxWarning: warning } };
  }
}

/** A command whose session sandbox (zygote) was lost while it ran: SANDBOX_LOST, its output kept after the reason. */
function sandboxLost(result: ToolResult, reason: string): ToolResult {
  return errorResult('SANDBOX_LOST', `${lostMessage(reason)}\n${result.content[0]?.text ?? ''}`, { ...result.structuredContent, sandboxLost: reason });
}

function lostMessage(reason: string): string {
  return `the session's sandbox was lost while the command ran (${reason}); the command was killed with it, and the next command starts in a fresh sandbox`;
}

/** Whether the filesystem holding `dir` has at least a MiB free (then a full-disk error came from a tmpfs). */
function hasRoom(dir: string): boolean {
  try {
    const stat = fs.statfsSync(dir);
    return stat.bavail * stat.bsize > 1024 * 1024;
  } catch {
    return false;
  }
}

function describeSnapshot(s: ProcessSnapshot): string {
  const end = s.status === 'running' ? '' : `, ${s.signal ? `signal ${s.signal}` : `exit code ${s.exitCode}`}, ended ${s.endedAt}`;
  return `${s.processId} [${s.status}] pid ${s.pid ?? '-'}, started ${s.startedAt}${end}: ${s.command}`;
}

/** The result as the finding's error (its text after the finding's message), or unchanged without a finding. */
function withFinding(result: ToolResult, finding: ProcessFinding | undefined): ToolResult {
  if (finding === undefined) return result;
  return errorResult(finding.code, `${finding.message}\n${result.content[0]?.text ?? ''}`, { ...result.structuredContent, ...finding.details });
}

/**
 * The result with the rule that admitted the command as `admittedBy`, which the runtime puts in the audit event
 * (bash is decided here, not at admission); a refusal names its rule as `rule` instead.
 */
function withRule(result: ToolResult, rule: string): ToolResult {
  return { ...result, structuredContent: { ...result.structuredContent, admittedBy: rule } };
}
