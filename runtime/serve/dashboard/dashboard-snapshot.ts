import type { ProcessStatus } from '../../processes/index.js';
import type { SessionInspection } from '../../session/session-inspection.js';
import type { InboxItem } from '../approvals/approval-inbox.js';
import type { ServedSession } from '../http/served-sessions.js';

/** Characters of a background process's output the dashboard shows. */
export const LOG_TAIL_CHARS = 2_000;

/** A background process as the dashboard shows it. */
export interface ProcessView {
  processId: string;
  command: string;
  status: ProcessStatus;
  exitCode: number | null;
  startedAt: string;
  endedAt: string | null;
  /** The last {@link LOG_TAIL_CHARS} characters of its output. */
  tail: string;
}

/** A served session as the dashboard shows it. */
export interface SessionView {
  /** The toolwarden session id (the dashboard's handle for closing it). */
  id: string;
  user: string;
  /** The MCP client's name and version from its `initialize`, cleaned for display. */
  client: string | undefined;
  /** The user's tenant `maxSessions`; undefined: no per-user bound. */
  maxSessionsOfUser: number | undefined;
  tools: readonly string[];
  mcpServers: readonly string[];
  workspace: string;
  /** Epoch milliseconds. */
  openedAt: number;
  /** Audit events (calls and refusals) of the session. */
  calls: number;
  writeBytesUsed: number;
  /** 0: unlimited. */
  writeQuotaBytes: number;
  maxProcesses: number;
  processes: ProcessView[];
}

/** Everything the dashboard's views show but the audit stream. */
export interface DashboardSnapshot {
  /** The server's clock, so the page computes time left without trusting its own. */
  now: number;
  sessions: SessionView[];
  approvals: InboxItem[];
}

/** What a snapshot is built from. */
export interface SnapshotSources {
  sessions(): readonly ServedSession[];
  inspect(sessionId: string): SessionInspection | undefined;
  callsOf(sessionId: string): number;
  approvals(): InboxItem[];
  maxSessionsOf(user: string): number | undefined;
}

/** Takes a snapshot of the served sessions (sorted by user, then age), their processes and the pending approvals. */
export function takeSnapshot(sources: SnapshotSources): DashboardSnapshot {
  const sessions = sources.sessions().map((served) => viewOf(served, sources));
  sessions.sort((a, b) => a.user.localeCompare(b.user) || a.openedAt - b.openedAt);
  return { now: Date.now(), sessions, approvals: sources.approvals() };
}

function viewOf(served: ServedSession, sources: SnapshotSources): SessionView {
  const { capability } = served.session;
  const inspection = sources.inspect(served.session.id);
  const processes = (inspection?.processes() ?? []).map((p): ProcessView => ({
    processId: p.processId,
    command: p.command,
    status: p.status,
    exitCode: p.exitCode,
    startedAt: p.startedAt,
    endedAt: p.endedAt,
    tail: tailOf(inspection, p.processId),
  }));
  return {
    id: served.session.id,
    user: served.user,
    client: served.client,
    maxSessionsOfUser: sources.maxSessionsOf(served.user),
    tools: capability.tools,
    mcpServers: capability.mcpServers,
    workspace: capability.workspaceRoot,
    openedAt: served.openedAt,
    calls: sources.callsOf(served.session.id),
    writeBytesUsed: inspection?.writeBytesUsed() ?? 0,
    writeQuotaBytes: capability.limits.writeQuotaBytes,
    maxProcesses: capability.limits.maxProcesses,
    processes,
  };
}

function tailOf(inspection: SessionInspection | undefined, processId: string): string {
  try {
    return inspection?.processTail(processId, LOG_TAIL_CHARS) ?? '';
  } catch {
    // Forgotten between the listing and the read: nothing to show.
    return '';
  }
}
