// `node dist/bench/profile-summary.js DIR [TOP]`: the functions with the most self time in each .cpuprofile of DIR
// (one per thread when a run used `node --cpu-prof --cpu-prof-dir=DIR`).
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time in ms per function (`name url:line`), largest first. */
function selfTimes(profile: CpuProfile): [string, number][] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = byNode.get(id)?.callFrame;
    if (!frame) return;
    const where = frame.url ? ` ${shorten(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'}${where}`;
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
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
    const times = selfTimes(profile);
    const total = times.reduce((sum, [, ms]) => sum + ms, 0);
    process.stdout.write(`\n${file}: ${total.toFixed(0)} ms sampled\n`);
    for (const [name, ms] of times.slice(0, Number(top))) {
      process.stdout.write(`  ${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${name}\n`);
    }
  }
}

main();
