// `node dist/bench/profile-summary.js DIR [TOP]`: the functions with the most self and total time in each .cpuprofile of DIR
// (one per thread when a run used `node --cpu-prof --cpu-prof-dir=DIR`).
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self and total (inclusive) time in ms per function (`name url:line`), each sorted largest first. */
function functionTimes(profile: CpuProfile): { self: [string, number][]; total: [string, number][] } {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const leaf = byNode.get(id);
    if (!leaf) return;
    add(self, keyOf(leaf), ms);
    // A recursive function counts once per sample in its total.
    const seen = new Set<string>();
    for (let node: ProfileNode | undefined = leaf; node; node = byNode.get(parents.get(node.id) ?? -1)) {
      const key = keyOf(node);
      if (!seen.has(key)) add(total, key, ms);
      seen.add(key);
    }
  });
  const sorted = (map: Map<string, number>): [string, number][] => [...map].sort((a, b) => b[1] - a[1]);
  return { self: sorted(self), total: sorted(total) };
}

function keyOf(node: ProfileNode): string {
  const frame = node.callFrame;
  const where = frame.url ? ` ${shorten(frame.url)}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'}${where}`;
}

function add(map: Map<string, number>, key: string, ms: number): void {
  map.set(key, (map.get(key) ?? 0) + ms);
}

function shorten(url: string): string {
  const marker = url.indexOf('/dist/');
  if (marker !== -1) return url.slice(marker + 1);
  const modules = url.lastIndexOf('/node_modules/');
  return modules !== -1 ? url.slice(modules + 1) : url.replace(/^file:\/\//, '');
}

function main(): void {
  const [dir, top = '20'] = process.argv.slice(2);
  if (!dir) {
    process.stderr.write('usage: node dist/bench/profile-summary.js DIR [TOP]\n');
    process.exitCode = 2;
    return;
  }
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).sort()) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const times = functionTimes(profile);
    const sampled = times.self.reduce((sum, [, ms]) => sum + ms, 0);
    process.stdout.write(`\n${file}: ${sampled.toFixed(0)} ms sampled\n`);
    for (const [title, list] of [['self', times.self], ['total', times.total]] as const) {
      process.stdout.write(`  by ${title} time:\n`);
      for (const [name, ms] of list.slice(0, Number(top))) {
        process.stdout.write(`  ${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / sampled).toFixed(1).padStart(5)}%  ${name}\n`);
      }
    }
  }
}

main();
