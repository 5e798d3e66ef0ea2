import { describe, expect, it } from 'vitest';
import { readEvents, startDashboardNode } from './dashboard-fixture.js';

describe('shutdown with the dashboard open', () => {
  // The grace is longer than the test's timeout: a shutdown that waited for the event stream would fail the test.
  it('ends the event streams at once, so an open page does not hold the drain up', async () => {
    const node = await startDashboardNode({ shutdownGraceMs: 120_000 });
    const res = await node.api('/ui/api/events');
    const events = readEvents(res);
    await events.next((e) => e.event === 'snapshot');
    await node.close();
    await expect(events.next(() => false, 1_000)).rejects.toThrow('the event stream ended');
  }, 20_000);
});
