/**
 * The code samples of a markdown page, as the docs test runs them. A fenced block's language and the `<!-- sample: ... -->`
 * markers on the lines just above it decide what happens to it:
 * - ts / js blocks run, unless marked `skip because <reason>` (counted: the docs test allows only a few);
 * - `file <path>`: any block is written to that path of the page's workspace for the samples after it, not run;
 * - sh / bash blocks run only when marked `run` (cheap CLI commands), with `bash -e` in the page's workspace;
 * - any other block (json, text) is documentation only;
 * - `needs <command>...`: a sample that runs only where those commands are installed (bwrap, socat), skipped elsewhere.
 * A `// → text` (or `# → text` in a shell block) comment says the sample's output must contain `text`.
 */

/** What the docs test does with one fenced block. */
export type SampleMode = 'run' | 'skip' | 'file' | 'doc';

/** One fenced block of a page. */
export interface DocSample {
  /** `README.md` or `docs/x.md`. */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly kind: 'code' | 'shell' | 'other';
  readonly code: string;
  readonly mode: SampleMode;
  readonly skipReason?: string;
  /** For `file` blocks: the workspace-relative path the block is written to. */
  readonly file?: string;
  /** Texts the output must contain, from `→` comments. */
  readonly expects: readonly string[];
  /** Commands the sample needs on PATH (`needs` marker). */
  readonly needs: readonly string[];
}

const CODE_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);
const SHELL_LANGS = new Set(['sh', 'bash', 'shell']);
const MARKER = /^<!--\s*sample:\s*(.*?)\s*-->$/;
const FENCE = /^(\s*)(`{3,})\s*([\w-]*)\s*$/;
const EXPECT = { code: /\/\/\s*→\s*(.+?)\s*$/, shell: /#\s*→\s*(.+?)\s*$/ } as const;

/** Splits a page into its fenced blocks with their markers; throws naming the line on a malformed marker or fence. */
export function extractSamples(page: string, text: string): DocSample[] {
  const lines = text.split('\n');
  const samples: DocSample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', ticks = '', rawLang = ''] = open;
    const close = lines.findIndex((line, j) => j > i && line.trim() === ticks);
    if (close < 0) throw new Error(`${page}:${i + 1}: a fence that never closes`);
    const code = lines
      .slice(i + 1, close)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    samples.push(describe(page, i + 1, rawLang.toLowerCase(), code, markersAbove(page, lines, i)));
    i = close;
  }
  return samples;
}

function markersAbove(page: string, lines: readonly string[], fence: number): string[] {
  const markers: string[] = [];
  for (let j = fence - 1; j >= 0; j--) {
    const line = lines[j]!.trim();
    if (line === '') continue;
    const marker = MARKER.exec(line);
    if (!marker) break;
    if (marker[1] === undefined || marker[1] === '') throw new Error(`${page}:${j + 1}: an empty sample marker`);
    markers.unshift(marker[1]);
  }
  return markers;
}

function describe(page: string, line: number, lang: string, code: string, markers: readonly string[]): DocSample {
  const kind = CODE_LANGS.has(lang) ? 'code' : SHELL_LANGS.has(lang) ? 'shell' : 'other';
  const where = `${page}:${line}`;
  let mode: SampleMode = kind === 'code' ? 'run' : 'doc';
  let skipReason: string | undefined;
  let file: string | undefined;
  let needs: string[] = [];
  for (const marker of markers) {
    const [word, ...rest] = marker.split(/\s+/);
    const argument = rest.join(' ');
    if (word === 'skip') {
      if (!/^because \S/.test(argument)) throw new Error(`${where}: 'skip' needs 'because <reason>'`);
      if (kind !== 'code') throw new Error(`${where}: only ts/js samples are skipped; other blocks do not run unless marked 'run'`);
      mode = 'skip';
      skipReason = argument.slice('because '.length);
    } else if (word === 'run' && argument === '') {
      if (kind !== 'shell') throw new Error(`${where}: 'run' is for sh/bash blocks; ts/js blocks always run`);
      mode = 'run';
    } else if (word === 'needs' && /^[\w-]+( [\w-]+)*$/.test(argument)) {
      if (kind === 'other') throw new Error(`${where}: 'needs' is for samples that run`);
      needs = argument.split(' ');
      if (kind === 'shell') mode = 'run';
    } else if (word === 'file' && /^[\w.-]+(\/[\w.-]+)*$/.test(argument) && !argument.split('/').includes('..')) {
      mode = 'file';
      file = argument;
    } else {
      throw new Error(`${where}: unknown sample marker '${marker}' (skip because ..., run, needs <command>..., file <relative path>)`);
    }
  }
  if (markers.length > 1) throw new Error(`${where}: one sample marker per block`);
  const pattern = kind === 'shell' ? EXPECT.shell : EXPECT.code;
  const expects = kind === 'other' ? [] : code.split('\n').flatMap((text) => pattern.exec(text)?.[1] ?? []);
  return { page, line, lang, kind, code, mode, expects, needs, ...(skipReason === undefined ? {} : { skipReason }), ...(file === undefined ? {} : { file }) };
}
