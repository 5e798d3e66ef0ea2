import fs from 'node:fs';
import path from 'node:path';
import { cpuClock } from '../cpu.js';
import { assertOk, latencyFigure, sampleInTurns } from '../measure.js';
import { connectStdio, type StdioPeer } from '../mcp-client.js';
import { repoPath } from '../paths.js';
import { againstLean, compareRow, infoRow, leanOf, type RatioGoal } from '../targets.js';
import { makeWorkspace } from '../workspace.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 6: `toolwarden serve` over stdio against @modelcontextprotocol/server-filesystem, same client, same files. */
export const peer: Scenario = {
  id: 6,
  title: 'The peer: toolwarden serve vs @modelcontextprotocol/server-filesystem, both over stdio with the SDK client',
  run: runPeer,
};

const CLI = 'dist/cli/main.js';
const PEER = 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js';
const SDK_FLOOR = 'bench/fixtures/sdk-floor-server.mjs';
// Issue 14: twice as fast as server-filesystem; issue 28: at most 1.3x a server on the SDK that does no work.
const TWICE_AS_FAST: RatioGoal = { kind: 'max', limit: 0.5 };
const NEAR_THE_FLOOR: RatioGoal = { kind: 'max', limit: 1.3 };

async function runPeer(context: ScenarioContext): Promise<ScenarioOutcome> {
  const ws = makeWorkspace(context.scratch);
  if (!fs.existsSync(repoPath(CLI))) {
    return { rows: [], notes: [], skipped: `${CLI} does not exist yet (toolwarden serve is not built); rerun with --scenario 6 once it is` };
  }
  const file = path.join(ws.root, ws.file4k);
  const dir = path.join(ws.root, ws.grepDir);
  const servers: StdioPeer[] = [];
  try {
    const tw = await connectStdio([repoPath(CLI), 'serve', '--workspace', ws.root, '--tools', 'read_file,list_dir', '--sandbox', 'off'], ws.root);
    servers.push(tw);
    const fsServer = await connectStdio([repoPath(PEER), ws.root], ws.root);
    servers.push(fsServer);
    // What any server on the SDK's Server costs over stdio: the same replies, made once, so no work per call.
    const floor = await connectStdio([repoPath(SDK_FLOOR), file, dir], ws.root);
    servers.push(floor);
    const call = async (server: StdioPeer, name: string, args: Record<string, unknown>): Promise<void> => {
      assertOk((await server.client.callTool({ name, arguments: args })) as { isError?: boolean });
    };
    const plan = context.sizes.peerCalls;
    const samples = await sampleInTurns(
      {
        twRead: () => call(tw, 'read_file', { path: file }),
        peerRead: () => call(fsServer, 'read_text_file', { path: file }),
        twList: () => call(tw, 'list_dir', { path: dir }),
        peerList: () => call(fsServer, 'list_directory', { path: dir }),
        floorRead: () => call(floor, 'read', {}),
        floorList: () => call(floor, 'list', {}),
        twPing: () => tw.client.ping(),
        peerPing: () => fsServer.client.ping(),
      },
      plan,
      {
        onRound: (round) => context.progress(`stdio round ${round + 1}/${plan.rounds}`),
        // The servers do the work: their CPU counts, every thread, next to this client's.
        cpu: cpuClock(() => servers.flatMap((server) => (server.pid === null ? [] : [server.pid]))),
      },
    );
    const twRead = latencyFigure('toolwarden serve read_file', samples.twRead);
    const twList = latencyFigure('toolwarden serve list_dir', samples.twList);
    const peerRead = latencyFigure('server-filesystem read_text_file', samples.peerRead);
    const peerList = latencyFigure('server-filesystem list_directory', samples.peerList);
    const floorRead = latencyFigure('SDK server floor: the same text, made once', samples.floorRead);
    const floorList = latencyFigure('SDK server floor: the same listing, made once', samples.floorList);
    const readVsPeer = compareRow('read_file 4 KiB over stdio vs server-filesystem', twRead, peerRead, TWICE_AS_FAST);
    const listVsPeer = compareRow('directory listing over stdio vs server-filesystem', twList, peerList, TWICE_AS_FAST);
    return {
      rows: [
        readVsPeer,
        leanOf(readVsPeer, compareRow('SDK server floor', floorRead, peerRead, TWICE_AS_FAST)),
        againstLean(compareRow('read_file 4 KiB over stdio vs the SDK server floor', twRead, floorRead, NEAR_THE_FLOOR)),
        listVsPeer,
        leanOf(listVsPeer, compareRow('SDK server floor', floorList, peerList, TWICE_AS_FAST)),
        againstLean(compareRow('directory listing over stdio vs the SDK server floor', twList, floorList, NEAR_THE_FLOOR)),
        infoRow('bare stdio round trip (MCP ping)', latencyFigure('toolwarden serve ping', samples.twPing), latencyFigure('server-filesystem ping', samples.peerPing)),
      ],
      notes: [
        `same SDK Client, same absolute paths (a 4 KiB file; a directory of ${fs.readdirSync(dir).length} entries); ${plan.warmup} warmup + ${plan.rounds} rounds of ${plan.perRound} calls per operation, taking turns`,
        'targets: issue 14, at least 2x faster than server-filesystem (ratio <= 0.5); issue 28, at most 1.3x the SDK server floor',
        'the SDK server floor (bench/fixtures/sdk-floor-server.mjs) is the lean design here: a server on the SDK answering replies made once, no work per call',
        'cpu/call: this client plus the three servers, every thread (all idle but the one called)',
      ],
    };
  } catch (error) {
    return { rows: [], notes: [], skipped: error instanceof Error ? error.message : String(error) };
  } finally {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  }
}
