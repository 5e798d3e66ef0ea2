import fs from 'node:fs';
import path from 'node:path';
import { assertOk, figureOf, sampleInTurns } from '../measure.js';
import { connectStdio, type StdioPeer } from '../mcp-client.js';
import { repoPath } from '../paths.js';
import { ceilingNote, compareRow, infoRow } from '../targets.js';
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
const TWICE_AS_FAST = { kind: 'max', limit: 0.5 } as const;

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
      (block) => context.progress(`stdio block ${block + 1}/${plan.blocks}`),
    );
    const peerRead = figureOf('server-filesystem read_text_file', 'ms', samples.peerRead);
    const peerList = figureOf('server-filesystem list_directory', 'ms', samples.peerList);
    const floorRead = figureOf('SDK server floor: the same text, made once', 'ms', samples.floorRead);
    const floorList = figureOf('SDK server floor: the same listing, made once', 'ms', samples.floorList);
    return {
      rows: [
        compareRow('read_file 4 KiB over stdio', figureOf('toolwarden serve read_file', 'ms', samples.twRead), peerRead, TWICE_AS_FAST),
        infoRow('SDK server floor vs server-filesystem read', floorRead, peerRead),
        compareRow('directory listing over stdio', figureOf('toolwarden serve list_dir', 'ms', samples.twList), peerList, TWICE_AS_FAST),
        infoRow('SDK server floor vs server-filesystem listing', floorList, peerList),
        infoRow('bare stdio round trip (MCP ping)', figureOf('toolwarden serve ping', 'ms', samples.twPing), figureOf('server-filesystem ping', 'ms', samples.peerPing)),
      ],
      notes: [
        `same SDK Client, same absolute paths (a 4 KiB file; a directory of ${fs.readdirSync(dir).length} entries); ${plan.warmup} warmup + ${plan.blocks * plan.perBlock} timed calls per operation, taking turns`,
        'targets (issue 14): at least 2x faster on read_file and on listing (ratio <= 0.5)',
        // The floor does no work at all; a brokered call adds at least a worker round trip and the read to it.
        ceilingNote('read over stdio', floorRead, peerRead, TWICE_AS_FAST),
        ceilingNote('listing over stdio', floorList, peerList, TWICE_AS_FAST),
      ],
    };
  } catch (error) {
    return { rows: [], notes: [], skipped: error instanceof Error ? error.message : String(error) };
  } finally {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  }
}
