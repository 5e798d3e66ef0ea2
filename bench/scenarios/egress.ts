import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startEgressProxy } from '../../runtime/net/egress/egress-proxy.js';
import { latencyFigure, sampleInTurns } from '../measure.js';
import { infoRow } from '../targets.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 8: one HTTP request through a session's egress proxy (checked, forwarded, audited) vs the same request direct. */
export const egress: Scenario = {
  id: 8,
  title: 'Egress proxy: a request through the proxy vs direct',
  run: runEgress,
};

async function runEgress(context: ScenarioContext): Promise<ScenarioOutcome> {
  const body = 'x'.repeat(1024);
  const server = http.createServer((_req, res) => res.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const socketPath = path.join(mkdtempSync(path.join(context.scratch, 'egress-')), 'egress.sock');
  let audited = 0;
  const proxy = await startEgressProxy({ sessionId: 'bench', net: [`127.0.0.1:${port}`], socketPath, audit: () => (audited += 1) });
  const url = `http://127.0.0.1:${port}/`;
  // A fresh connection each time, as curl or a package manager's first request makes one.
  const direct = (): Promise<number> => get({ host: '127.0.0.1', port, path: '/' });
  const proxied = (): Promise<number> => get({ socketPath, path: url, headers: { host: `127.0.0.1:${port}` } });
  try {
    const plan = context.sizes.requests;
    const samples = await sampleInTurns({ direct, proxied }, plan, { onRound: (round) => context.progress(`round ${round + 1}/${plan.rounds}`) });
    const baseline = latencyFigure('GET 1 KiB direct to 127.0.0.1 (new connection)', samples.direct);
    return {
      rows: [infoRow('GET 1 KiB through the egress proxy (absolute URI, new connection, vetted, audited)', latencyFigure('through the proxy socket', samples.proxied), baseline)],
      notes: [
        `${plan.warmup} warmup + ${plan.rounds} rounds of ${plan.perRound} requests each, taking turns; ${audited} audit events`,
        'host side only: a sandboxed command adds the socat hop inside the sandbox (not measured here)',
      ],
    };
  } finally {
    await proxy.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function get(options: http.RequestOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ ...options, agent: false }, (res) => {
      let size = 0;
      res.on('data', (chunk: Buffer) => (size += chunk.byteLength));
      res.once('end', () => (res.statusCode === 200 ? resolve(size) : reject(new Error(`status ${res.statusCode ?? '?'}`))));
    });
    req.once('error', reject);
    req.end();
  });
}
