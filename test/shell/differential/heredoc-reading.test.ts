import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser } from '../../../runtime/shell-parser.js';
import { bindHeredocs } from '../../../src/shell/heredoc/agree.js';
import { HeredocReadError } from '../../../src/shell/heredoc/lexer.js';
import { readHeredocs } from '../../../src/shell/heredoc/read.js';
import type { ShellParser } from '../../../src/shell/index.js';

// Bash is the oracle twice: it runs a generated script, and it runs the script as the checker reads it (each
// here-document replaced by a redirection from a file that holds the body the reading found). Only `cat` and
// `echo` run, so the two outputs are equal exactly when the reading took the same bodies and left the same code.
const bash = spawnSync('bash', ['-c', 'echo ok'], { encoding: 'utf8' }).stdout === 'ok\n';
if (!bash) console.warn('skipping the here-document reading property: no bash');

interface Doc {
  op: '<<' | '<<-';
  word: string;
  delimiter: string;
  quoted: boolean;
}

const DELIMITERS: [word: string, delimiter: string, quoted: boolean][] = [
  ['EOF', 'EOF', false], ["'EOF'", 'EOF', true], ['"EOF"', 'EOF', true], ['\\EOF', 'EOF', true], ['E"O"F', 'EOF', true],
  ["'E F'", 'E F', true], ["$'E\\tF'", 'E\tF', true], ["''", '', true], ['X', 'X', false], ['E\\\nOF', 'EOF', false],
];

// Lines near the delimiter (and lines that look like code) are where a reading that differs from bash's shows.
const lineFor = (d: Doc, kind: number, n: number): string =>
  [
    d.delimiter, `\t${d.delimiter}`, `\t\t${d.delimiter}`, ` ${d.delimiter}`, `${d.delimiter} `, `${d.delimiter}\r`, `${d.delimiter}x`,
    `x${d.delimiter}`, `${d.delimiter})`, `${d.delimiter} echo in${n})`, `${d.delimiter.slice(0, 1)}\\\n${d.delimiter.slice(1)}`,
    `echo line${n}`, `text ${n} 'q`, `text ${n} "q`, '', `(paren ${n}`, `close ${n})`, `tail ${n} \\`, `a\\\\`, `\t  mixed ${n}`,
  ][kind] as string;

const docArb: fc.Arbitrary<Doc> = fc.record({ op: fc.constantFrom('<<' as const, '<<-' as const), pick: fc.nat(DELIMITERS.length - 1) }).map(({ op, pick }) => {
  const [word, delimiter, quoted] = DELIMITERS[pick] as [string, string, boolean];
  return { op, word, delimiter, quoted };
});

const bodyArb = (d: Doc): fc.Arbitrary<string> =>
  fc.record({ lines: fc.array(fc.nat(19), { maxLength: 4 }), close: fc.nat(4).map((n) => n > 0) }).map(({ lines, close }) => {
    const out = lines.map((k, i) => lineFor(d, k, i));
    if (close) out.push(d.op === '<<-' && lines.length % 2 === 1 ? `\t${d.delimiter}` : d.delimiter);
    return out.map((l) => `${l}\n`).join('');
  });

// Each shape: the command line (with the operators of here-documents a and b) and what closes it after the bodies.
const SHAPES: [(a: string, b: string) => string, string][] = [
  [(a) => `cat ${a}`, ''],
  [(a, b) => `cat ${a} ${b}`, ''],
  [(a, b) => `cat ${a}; cat ${b}`, ''],
  [(a) => `echo pre | cat ${a} && echo mid`, ''],
  [(a) => `echo "$(cat ${a}`, ')"\n'],
  [(a) => `echo $(cat ${a}) tail "q`, 'q"\n'],
  [(a, b) => `cat ${a} 2>&1 | cat - ${b}`, ''],
  [(a) => `(cat ${a}`, ')\n'],
  [(a) => `echo "$( (cat ${a}`, ') )"\n'],
  [(a) => `case x in x) cat ${a};;`, 'esac\n'],
  [(a) => `echo $((1<<2)) $[3<<1]; cat ${a}`, ''],
  [(a, b) => `x=$(cat ${a}; cat ${b}`, '); echo "$x"\n'],
  [(a) => `f() { cat ${a}`, '}; f; f\n'],
];

// One script: a shape's command line, the bodies bash reads after it, then lines that close what the shape opened.
const scriptArb = fc
  .record({ shape: fc.nat(SHAPES.length - 1), a: docArb, b: docArb, after: fc.array(fc.nat(19), { maxLength: 3 }) })
  .chain(({ shape, a, b, after }) =>
    fc.tuple(bodyArb(a), bodyArb(b)).map(([bodyA, bodyB]) => {
      const [build, closer] = SHAPES[shape] as [(a: string, b: string) => string, string];
      const line = build(`${a.op}${a.word}`, `${b.op}${b.word}`);
      const two = (line.match(/<</g) ?? []).length === 2 + (line.includes('$((') ? 1 : 0) + (line.includes('$[') ? 1 : 0);
      const tail = after.map((k, i) => lineFor(a, k, 10 + i)).join('\n');
      // The input ends with a newline: bash 5.2 and 5.3 store a backslash that ends the input differently.
      return `${line}\n${bodyA}${two ? bodyB : ''}${closer}${tail}\n`;
    }),
  );

let parser: ShellParser;
let dir: string;
beforeAll(async () => {
  parser = await loadShellParser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-hd-reading-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (script: string): { out: string; status: number | null } => {
  const r = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'latin1', timeout: 5000, env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' } });
  return { out: r.stdout, status: r.status };
};

/**
 * The script as the reading sees it, runnable: each placeholder reads its body (as bash expands it) from a file;
 * else why the reading refuses it (see HeredocReadError), or `parser` when tree-sitter does not parse the result.
 */
function asRead(script: string): string | 'rejected' | 'unfollowed' | 'parser' {
  let reading;
  try {
    reading = readHeredocs(script);
  } catch (error) {
    if (error instanceof HeredocReadError) return error.kind;
    throw error;
  }
  const syntax = parser.parse(reading.source);
  if (syntax.hasError || bindHeredocs(syntax.root, reading.heredocs) !== null) return 'parser';
  let out = reading.source;
  for (const [i, h] of [...reading.heredocs.entries()].reverse()) {
    // An unquoted body is expanded; with no $ or backquote in it, that leaves only backslash escapes to undo.
    fs.writeFileSync(path.join(dir, `body${i}`), h.quoted ? h.body : h.body.replace(/\\([\\$`])/g, '$1'), 'latin1');
    out = `${out.slice(0, h.at)}< body${i}${out.slice(h.at + h.length)}`;
  }
  return out;
}

describe.skipIf(!bash)('the here-document reading agrees with bash', () => {
  it('on generated scripts, output for output; what it rejects, bash rejects too', () => {
    let compared = 0;
    fc.assert(
      fc.property(scriptArb, (script) => {
        const read = asRead(script);
        if (read === 'parser' || read === 'unfollowed') return;
        if (read === 'rejected') {
          expect(spawnSync('bash', ['-n', '-c', script]).status, script).not.toBe(0);
          return;
        }
        compared++;
        expect(run(read), JSON.stringify({ script, read })).toEqual(run(script));
      }),
      { seed: 20261130, numRuns: 400 },
    );
    // Most scripts parse: a reading that refuses everything would agree with nothing.
    expect(compared).toBeGreaterThan(200);
  }, 120_000);
});
