import fs from 'node:fs';
import { guessFamily } from './family.js';
import { mostSevere, type Escape } from './run.js';

// node dist/fuzz/shell/record.js ESCAPES_MD FILE.escapes.jsonl...: appends the escapes not yet listed in ESCAPES_MD.
const [md, ...inputs] = process.argv.slice(2);
if (md === undefined) {
  console.error('usage: record.js ESCAPES_MD FILE.escapes.jsonl...');
  process.exit(2);
}
const existing = fs.existsSync(md) ? fs.readFileSync(md, 'utf8') : '';
const seen = new Set([...existing.matchAll(/^- `(.*)`$/gm)].map((m) => m[1]));
const lines: string[] = [];
for (const file of inputs) {
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    if (raw.trim() === '') continue;
    const e = JSON.parse(raw) as Escape;
    const key = JSON.stringify(e.template).slice(1, -1);
    if (seen.has(key)) continue;
    seen.add(key);
    const v = mostSevere(e.violations)[0];
    const evidence = v ? `\`${v.syscall}\` on \`${v.resolved}\` (${v.why}); trace: \`${v.line.replace(/`/g, "'").slice(0, 200)}\`` : `${e.canaryChanges.join(', ') || 'canary in the output'}`;
    lines.push(`- \`${key}\``, `  - family ${guessFamily(e.template)}; found by ${e.origin}; ${evidence}`);
  }
}
if (existing === '') lines.unshift('# Escapes found by the differential shell checker (branch shell-diff)', '', '`@B@` is the fixture base: `@B@/ws` is the workspace, `@B@/outside` the canary, `@B@/ws-evil` the prefix twin, `@B@/home` HOME. Fixture: fuzz/shell/fixture.ts. Reproduce one: `node /tmp/twdbg.mjs` style, or add it to test/shell/differential/found-escapes.test.ts.', '');
if (lines.length > 0) fs.appendFileSync(md, `${lines.join('\n')}\n`);
console.log(`${lines.filter((l) => l.startsWith('- ')).length} new escapes recorded in ${md}`);
