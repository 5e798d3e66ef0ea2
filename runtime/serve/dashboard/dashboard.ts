import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditEvent } from '../../../src/audit/audit-event.js';
import type { ServeDashboard } from '../../../src/serve/serve-config.js';
import type { Runtime } from '../../runtime.js';
import type { ApprovalInbox } from '../approvals/approval-inbox.js';
import type { ServedSessions } from '../http/served-sessions.js';
import { createAdminAuth } from './admin-auth.js';
import { AuditRing } from './audit-ring.js';
import { loadDashboardAssets } from './dashboard-assets.js';
import { createDashboardRoutes } from './dashboard-routes.js';
import { takeSnapshot, type DashboardSnapshot } from './dashboard-snapshot.js';
import { SseHub } from './sse-hub.js';

/** How often open event streams get a fresh snapshot (process status, log tails, session ages) when nothing else moved. */
const TICK_MS = 1_000;

/** What the dashboard needs from its server. */
export interface DashboardOptions {
  readonly settings: ServeDashboard;
  readonly adminToken: string;
  readonly runtime: () => Runtime | undefined;
  readonly sessions: () => ServedSessions | undefined;
  readonly inbox: ApprovalInbox;
  /** A user's tenant `maxSessions`, shown against the sessions open. */
  readonly maxSessionsOf: (user: string) => number | undefined;
  readonly log: (line: string) => void;
}

/** The live dashboard of a serve node. */
export interface Dashboard {
  /** The audit callback that feeds the stream; give it to the runtime next to the configured audit target. */
  readonly record: (event: AuditEvent) => void;
  /** Answers `/ui` paths; false for others. */
  readonly route: (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean>;
  /** Ends the event streams (a shutdown does not wait for them). */
  close(): void;
}

/**
 * Builds the dashboard: the admin's views of sessions, processes, the audit stream and the approval inbox, kept live
 * over Server-Sent Events (`snapshot` on every change and each second, `audit` per event).
 */
export function createDashboard(options: DashboardOptions): Dashboard {
  const ring = new AuditRing(options.settings.auditEvents);
  const hub = new SseHub();
  const snapshot = (): DashboardSnapshot => {
    const served = options.sessions()?.list() ?? [];
    ring.retain(new Set(served.map((s) => s.session.id)));
    return takeSnapshot({
      sessions: () => served,
      inspect: (id) => options.runtime()?.inspectSession(id),
      callsOf: (id) => ring.callsOf(id),
      approvals: () => options.inbox.list(),
      maxSessionsOf: options.maxSessionsOf,
    });
  };
  let queued = false;
  const push = (): void => {
    if (queued || hub.size === 0) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      if (hub.size > 0) hub.send('snapshot', snapshot());
    });
  };
  const ticker = setInterval(push, TICK_MS).unref();
  options.inbox.onChange(push);
  const findServed = (sessionId: string) => options.sessions()?.list().find((s) => s.session.id === sessionId);
  const route = createDashboardRoutes(createAdminAuth(options.adminToken), loadDashboardAssets(), {
    state: () => ({ ...snapshot(), audit: ring.list() }),
    openStream: (res, headers) => {
      if (!hub.open(res, headers)) return false;
      hub.send('snapshot', snapshot(), res);
      hub.send('audit-backlog', ring.list(), res);
      return true;
    },
    approvalOptions: (id) => options.inbox.list().find((item) => item.id === id)?.options,
    answer: (id, decision) => {
      const answered = options.inbox.answer(id, decision);
      if (answered) options.log(`dashboard: approval ${id} answered ${decision}`);
      return answered;
    },
    closeSession: async (sessionId) => {
      const served = findServed(sessionId);
      if (served === undefined) return false;
      await served.close('closed from the dashboard');
      push();
      return true;
    },
    stopProcess: async (sessionId, processId) => {
      const inspection = findServed(sessionId) === undefined ? undefined : options.runtime()?.inspectSession(sessionId);
      if (inspection === undefined) return undefined;
      const stopped = await inspection.stopProcess(processId);
      options.log(`dashboard: process ${processId} of session ${sessionId} stopped`);
      push();
      return stopped;
    },
  });
  return {
    record: (event) => {
      const streamed = ring.push(event);
      if (hub.size > 0) hub.send('audit', streamed);
      push();
    },
    route,
    close: () => {
      clearInterval(ticker);
      hub.close();
    },
  };
}
