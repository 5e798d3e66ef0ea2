import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AuditEvent } from '../../../src/audit/audit-event.js';
import type { RuntimeStats } from '../../runtime-options.js';

/** Prometheus metrics of one serve node: counted from audit events, sampled from the runtime's stats at scrape time. */
export interface ServeMetrics {
  /** The audit callback that counts calls; give it to the runtime next to the configured audit target. */
  readonly record: (event: AuditEvent) => void;
  /** The text exposition format for `/metrics`. */
  scrape(): Promise<string>;
  /** The `Content-Type` of {@link scrape}'s text. */
  readonly contentType: string;
}

/** The tool label of calls to a tool the session does not have, and of tools past {@link MAX_TOOL_LABELS}. */
export const OTHER_TOOL = 'other';
/** Distinct tool labels kept: built-in tools, host tools and MCP tools of a configured deployment fit well inside. */
export const MAX_TOOL_LABELS = 256;

/** Call latency buckets in seconds: from a cached read (~1 ms) to a long command (minutes). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * Builds the metrics of a serve node on its own registry (never prom-client's global one, so two servers in one
 * process do not collide): `toolwarden_calls_total{tool,decision}`, `toolwarden_call_duration_seconds{tool}`,
 * `toolwarden_sessions{user}`, `toolwarden_processes_running`, `toolwarden_approvals_pending`,
 * `toolwarden_idle_workers`, `toolwarden_http_sessions`, and Node's default metrics (event-loop delay among them).
 * @param stats the runtime's live figures, read at each scrape
 * @param httpSessions the open MCP sessions, read at each scrape
 */
export function createServeMetrics(stats: () => RuntimeStats, httpSessions: () => number): ServeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'toolwarden_node_' });
  const calls = new Counter({ name: 'toolwarden_calls_total', help: 'Tool calls by tool and decision (allow, ask, deny, error)', labelNames: ['tool', 'decision'], registers: [registry] });
  const latency = new Histogram({ name: 'toolwarden_call_duration_seconds', help: 'Tool call latency, admission to result', labelNames: ['tool'], buckets: LATENCY_BUCKETS, registers: [registry] });
  new Gauge({
    name: 'toolwarden_sessions',
    help: 'Open toolwarden sessions by user',
    labelNames: ['user'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [user, count] of Object.entries(stats().sessionsByUser)) this.set({ user }, count);
    },
  });
  const sampled: [string, string, (s: RuntimeStats) => number][] = [
    ['toolwarden_processes_running', 'Background processes running across all sessions', (s) => s.processes],
    ['toolwarden_approvals_pending', 'Ask decisions waiting for an answer', (s) => s.pendingApprovals],
    ['toolwarden_idle_workers', 'Pre-started workers waiting for a session', (s) => s.idleWorkers],
  ];
  for (const [name, help, read] of sampled) {
    new Gauge({ name, help, registers: [registry], collect() { this.set(read(stats())); } });
  }
  new Gauge({ name: 'toolwarden_http_sessions', help: 'Open MCP sessions over Streamable HTTP', registers: [registry], collect() { this.set(httpSessions()); } });
  const seen = new Set<string>();
  // A caller names the tool: a name outside the capability, or past the label budget, counts as `other`, so no
  // client can grow the series without bound.
  const toolLabel = (event: AuditEvent): string => {
    if (event.code === 'TOOL_NOT_ALLOWED') return OTHER_TOOL;
    if (!seen.has(event.tool)) {
      if (seen.size >= MAX_TOOL_LABELS) return OTHER_TOOL;
      seen.add(event.tool);
    }
    return event.tool;
  };
  return {
    record: (event) => {
      const tool = toolLabel(event);
      calls.inc({ tool, decision: event.decision });
      latency.observe({ tool }, event.durationMs / 1000);
    },
    scrape: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
