import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { McpHub } from '../../runtime/mcp/index.js';
import type { ToolResult } from '../../src/tool-result.js';

/** Path of the stdio test server. */
export const TEST_SERVER = fileURLToPath(new URL('../fixtures/mcp/test-server.mjs', import.meta.url));

/** Path of the hostile stdio server (endless paging, huge results, secrets echoed everywhere). */
export const HOSTILE_SERVER = fileURLToPath(new URL('../fixtures/mcp/hostile-server.mjs', import.meta.url));

/** A stdio config that runs the hostile server with `args` and any other fields (env, perUser, limits). */
export function hostileServer<T extends object>(args: string[] = [], extra?: T): { command: string; args: string[] } & T {
  return { command: process.execPath, args: [HOSTILE_SERVER, ...args], ...(extra ?? ({} as T)) };
}

/** A stdio config that runs the test server with node. */
export function testServer(extra: { args?: string[]; env?: Record<string, string>; perUser?: boolean } = {}): {
  command: string;
  args: string[];
  env?: Record<string, string>;
  perUser?: boolean;
} {
  const config: { command: string; args: string[]; env?: Record<string, string>; perUser?: boolean } = {
    command: process.execPath,
    args: [TEST_SERVER, ...(extra.args ?? [])],
  };
  if (extra.env) config.env = extra.env;
  if (extra.perUser !== undefined) config.perUser = extra.perUser;
  return config;
}

/** The text of a result's first block. */
export function textOf(result: ToolResult): string {
  return result.content.map((block) => block.text).join('\n');
}

/** Pids of this process's live children whose command line contains `marker` (Linux /proc). */
export function childPids(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const state = fields[0];
      const ppid = Number(fields[1]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (ppid === process.pid && state !== 'Z' && cmdline.includes(marker)) pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** The error a call throws, or undefined when it returns. */
export function errorOf(fn: () => unknown): { code?: string; message?: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error as { code?: string; message?: string };
  }
}

/** Collects hubs a test opens and closes them after each test (call in the suite's module scope). */
export function trackHubs(): (hub: McpHub) => McpHub {
  const hubs: McpHub[] = [];
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  });
  return (hub) => {
    hubs.push(hub);
    return hub;
  };
}
