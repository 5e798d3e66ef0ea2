import { describe, expect, it } from 'vitest';
import { AuditRing } from '../../../runtime/serve/dashboard/audit-ring.js';
import type { AuditEvent } from '../../../src/audit/audit-event.js';

const event = (sessionId: string, n: number): AuditEvent => ({ time: new Date(0).toISOString(), sessionId, tool: 'read_file', args: { n }, decision: 'allow', durationMs: 1 });

describe('AuditRing', () => {
  it('keeps the last `capacity` events in order, numbered, however many arrive', () => {
    const ring = new AuditRing(3);
    for (let n = 1; n <= 1000; n += 1) ring.push(event('s1', n));
    expect(ring.list().map((e) => [e.seq, (e.args as { n: number }).n])).toEqual([[998, 998], [999, 999], [1000, 1000]]);
  });

  it('counts every call of a session, past the ring, and forgets closed sessions', () => {
    const ring = new AuditRing(2);
    for (let n = 0; n < 5; n += 1) ring.push(event('s1', n));
    ring.push(event('s2', 0));
    expect([ring.callsOf('s1'), ring.callsOf('s2'), ring.callsOf('s3')]).toEqual([5, 1, 0]);
    ring.retain(new Set(['s2']));
    expect([ring.callsOf('s1'), ring.callsOf('s2')]).toEqual([0, 1]);
  });
});
