import { FOLLOW_LINKS } from './follow-links.js';
import { renderOptions, type Gen, type Opt } from './gen.js';

/** A command generator: builds one simple command (or a short fixed sequence) and tags what it used. */
export interface CommandGen {
  name: string;
  /** Relative weight in the mix. */
  weight: number;
  /** Usable in the benign corpus (the over-asking count). */
  benign: boolean;
  build(g: Gen): string;
}

const files = (g: Gen, min: number, max: number): string[] => Array.from({ length: g.rng.int(min, max) }, () => g.read());

/** A command whose operands are files it reads, with its options. */
function reader(name: string, opts: Opt[], opt: { min?: number; max?: number; lead?: (g: Gen) => string[] } = {}): CommandGen {
  return {
    name,
    weight: 2,
    benign: true,
    build: (g) => [name, ...renderOptions(g, name, opts, g.rng.int(0, 3)), ...(opt.lead?.(g) ?? []), ...files(g, opt.min ?? 1, opt.max ?? 2)].join(' '),
  };
}

/** A command whose operands are files it writes. */
function writer(name: string, opts: Opt[], lead?: (g: Gen) => string[]): CommandGen {
  return {
    name,
    weight: 2,
    benign: true,
    build: (g) => [name, ...renderOptions(g, name, opts, g.rng.int(0, 2)), ...(lead?.(g) ?? []), g.write()].join(' '),
  };
}

const READERS: CommandGen[] = [
  reader('cat', [{ s: 'n', l: 'number' }, { s: 'A', l: 'show-all' }, { s: 'v', l: 'show-nonprinting' }, { s: 's', l: 'squeeze-blank' }]),
  reader('head', [{ s: 'n', l: 'lines', v: 'num' }, { s: 'c', l: 'bytes', v: 'num' }, { s: 'q', l: 'quiet' }, { s: 'v', l: 'verbose' }]),
  reader('tail', [{ s: 'n', l: 'lines', v: 'num' }, { s: 'c', l: 'bytes', v: 'num' }, { s: 'q', l: 'quiet' }]),
  reader('wc', [{ s: 'l', l: 'lines' }, { s: 'c', l: 'bytes' }, { s: 'w', l: 'words' }, { l: 'files0-from', v: 'read' }]),
  reader('cut', [{ s: 'd', l: 'delimiter', v: () => ':' }, { s: 'f', l: 'fields', v: 'num' }, { s: 'c', l: 'characters', v: 'num' }, { l: 'output-delimiter', v: 'text' }]),
  reader('tac', [{ s: 's', l: 'separator', v: 'text' }, { s: 'b', l: 'before' }]),
  reader('rev', []),
  reader('paste', [{ s: 'd', l: 'delimiters', v: () => ',' }, { s: 's', l: 'serial' }]),
  reader('nl', [{ s: 'b', l: 'body-numbering', v: () => 'a' }, { s: 'w', l: 'number-width', v: 'num' }]),
  reader('od', [{ s: 'A', l: 'address-radix', v: () => 'x' }, { s: 't', l: 'format', v: () => 'x1' }, { s: 'c' }]),
  reader('base64', [{ s: 'w', l: 'wrap', v: 'num' }, { s: 'd', l: 'decode' }]),
  reader('strings', [{ s: 'n', l: 'bytes', v: 'num' }, { s: 'a', l: 'all' }]),
  reader('hexdump', [{ s: 'C' }, { s: 'n', l: 'length', v: 'num' }, { s: 'f', l: 'format-file', v: 'read' }]),
  reader('file', [{ s: 'b', l: 'brief' }, { s: 'L', l: 'dereference', follows: true }, { s: 'm', l: 'magic-file', v: 'read' }, { s: 'f', l: 'files-from', v: 'read' }]),
  reader('stat', [{ s: 'c', l: 'format', v: () => '%s' }, { s: 'L', l: 'dereference', follows: true }, { s: 't', l: 'terse' }]),
  reader('ls', [{ s: 'l' }, { s: 'a', l: 'all' }, { s: 'R', l: 'recursive' }, { s: 'L', l: 'dereference', follows: true }, { s: 'H', l: 'dereference-command-line', follows: true }, { l: 'dereference-command-line-symlink-to-dir', follows: true }, { s: 'd', l: 'directory' }, { s: 'h', l: 'human-readable' }, { s: 'I', l: 'ignore', v: 'text' }, { l: 'color', v: () => 'never' }], { min: 0, max: 2 }),
  reader('du', [{ s: 's', l: 'summarize' }, { s: 'h' }, { s: 'L', l: 'dereference', follows: true }, { s: 'D', l: 'dereference-args', follows: true }, { s: 'H', follows: true }, { s: 'a', l: 'all' }, { l: 'max-depth', v: 'num' }, { s: 'X', l: 'exclude-from', v: 'read' }, { l: 'files0-from', v: 'read' }], { min: 0, max: 2 }),
  reader('diff', [{ s: 'u', l: 'unified' }, { s: 'r', l: 'recursive', follows: true }, { l: 'no-dereference' }, { s: 'q', l: 'brief' }, { l: 'from-file', v: 'read' }, { l: 'to-file', v: 'read' }, { s: 'X', l: 'exclude-from', v: 'read' }, { l: 'label', v: 'text' }], { min: 1, max: 2 }),
  reader('cmp', [{ s: 's', l: 'silent' }, { s: 'n', l: 'bytes', v: 'num' }], { min: 2, max: 2 }),
  reader('comm', [{ s: '1' }, { s: '2' }, { s: '3' }], { min: 2, max: 2 }),
  reader('fold', [{ s: 'w', l: 'width', v: 'num' }]),
  reader('expand', [{ s: 't', l: 'tabs', v: 'num' }]),
  reader('realpath', [{ s: 'e', l: 'canonicalize-existing' }, { s: 's', l: 'strip' }, { l: 'relative-to', v: 'dir' }]),
  reader('readlink', [{ s: 'f', l: 'canonicalize', follows: true }, { s: 'e', l: 'canonicalize-existing', follows: true }, { s: 'm', l: 'canonicalize-missing', follows: true }]),
  reader('cksum', [{ s: 'a', l: 'algorithm', v: () => 'md5' }]),
  reader('sha256sum', [{ s: 'b', l: 'binary' }, { s: 'c', l: 'check', risky: true }, { l: 'tag' }]),
  reader('md5sum', [{ s: 'b', l: 'binary' }, { l: 'tag' }]),
  reader('column', [{ s: 't', l: 'table' }, { s: 's', l: 'separator', v: () => ',' }]),
  reader('date', [{ s: 'r', l: 'reference', v: 'read' }, { s: 'f', l: 'file', v: 'read' }, { s: 'u', l: 'utc' }], { min: 0, max: 0 }),
  reader('jq', [{ s: 'r', l: 'raw-output' }, { s: 'c', l: 'compact-output' }, { l: 'rawfile', v: (g) => `x ${g.read()}`, risky: true }, { l: 'slurpfile', v: (g) => `x ${g.read()}`, risky: true }, { s: 'f', l: 'from-file', v: 'read', risky: true }], { lead: (g) => [g.pick(["'.'", "'.k'", "'.n[0]'", "'input_filename'", '\'$__loc__\''])] }),
  reader('grep', [{ s: 'n', l: 'line-number' }, { s: 'r', l: 'recursive' }, { s: 'R', l: 'dereference-recursive' }, { s: 'i', l: 'ignore-case' }, { s: 'l', l: 'files-with-matches' }, { s: 'e', l: 'regexp', v: 'text' }, { s: 'f', l: 'file', v: 'read' }, { l: 'include', v: () => "'*.txt'" }, { l: 'exclude-from', v: 'read' }], { min: 0, max: 2, lead: (g) => [g.pick(['TODO', 'alpha', 'x', TOKEN_PART])] }),
  reader('egrep', [{ s: 'r' }, { s: 'n' }], { lead: () => ['a'] }),
];
// A fragment of the canary: grep for it never matches a workspace file, so a match in the output means a read outside.
const TOKEN_PART = 'TWCANARY';

const WRITERS: CommandGen[] = [
  writer('touch', [{ s: 'c', l: 'no-create' }, { s: 'r', l: 'reference', v: 'read' }, { s: 'd', l: 'date', v: () => '2020-01-01' }, { s: 'h', l: 'no-dereference' }]),
  writer('mkdir', [{ s: 'p', l: 'parents' }, { s: 'm', l: 'mode', v: () => '755' }, { s: 'v', l: 'verbose' }]),
  writer('tee', [{ s: 'a', l: 'append' }, { s: 'i', l: 'ignore-interrupts' }]),
  writer('truncate', [{ s: 's', l: 'size', v: () => '0' }, { s: 'r', l: 'reference', v: 'read' }, { s: 'c', l: 'no-create' }], (g) => (g.chance(0.8) ? ['-s', '0'] : [])),
  writer('chmod', [{ s: 'R', l: 'recursive' }, { s: 'v', l: 'verbose' }, { l: 'reference', v: 'read' }], (g) => [g.pick(['644', '+x', 'u+w', '-w,a+rwx', 'go-r', '=r'])]),
  writer('chown', [{ s: 'R', l: 'recursive' }, { s: 'h', l: 'no-dereference' }, { s: 'L', follows: true }, { s: 'H', follows: true }, { l: 'dereference', follows: true }, { l: 'reference', v: 'read' }], () => ['0:0']),
  writer('chgrp', [{ s: 'R', l: 'recursive' }, { s: 'L', follows: true }, { s: 'H', follows: true }], () => ['0']),
  writer('rmdir', [{ s: 'p', l: 'parents' }]),
  writer('unlink', []),
  writer('mkfifo', [{ s: 'm', l: 'mode', v: () => '600' }]),
];

const copyOpts: Opt[] = [{ s: 'r', l: 'recursive' }, { l: 'parents' }, { s: 'f', l: 'force' }, { s: 'v', l: 'verbose' }, { s: 'L', l: 'dereference', follows: true }, { s: 'H', follows: true }, { s: 'P', l: 'no-dereference' }, { s: 'a', l: 'archive' }, { s: 't', l: 'target-directory', v: 'dir' }, { s: 'T', l: 'no-target-directory' }, { s: 'S', l: 'suffix', v: 'text' }, { l: 'backup', v: () => 'numbered' }];

const FILE_OPS: CommandGen[] = [
  { name: 'cp', weight: 4, benign: true, build: (g) => ['cp', ...renderOptions(g, 'cp', copyOpts, g.rng.int(0, 2)), g.read(), g.write()].join(' ') },
  { name: 'mv', weight: 3, benign: true, build: (g) => ['mv', ...renderOptions(g, 'mv', copyOpts.filter((o) => o.s !== 'r' && o.follows !== true && o.s !== 'a'), g.rng.int(0, 2)), g.write(), g.write()].join(' ') },
  { name: 'ln', weight: 3, benign: true, build: (g) => ['ln', ...renderOptions(g, 'ln', [{ s: 's', l: 'symbolic' }, { s: 'f', l: 'force' }, { s: 'n', l: 'no-dereference' }, { s: 'r', l: 'relative' }, { s: 'T' }, { s: 't', l: 'target-directory', v: 'dir' }], g.rng.int(0, 2)), g.read(), g.write()].join(' ') },
  { name: 'rm', weight: 3, benign: true, build: (g) => ['rm', ...renderOptions(g, 'rm', [{ s: 'r', l: 'recursive' }, { s: 'f', l: 'force' }, { s: 'd', l: 'dir' }, { s: 'v', l: 'verbose' }, { l: 'one-file-system' }], g.rng.int(0, 2)), g.write()].join(' ') },
  { name: 'sort', weight: 2, benign: true, build: (g) => ['sort', ...renderOptions(g, 'sort', [{ s: 'r', l: 'reverse' }, { s: 'u', l: 'unique' }, { s: 'n', l: 'numeric-sort' }, { s: 'o', l: 'output', v: 'write' }, { s: 'k', l: 'key', v: () => '1' }, { s: 'T', l: 'temporary-directory', v: 'dir' }, { l: 'files0-from', v: 'read' }, { l: 'compress-program', v: () => 'cat', risky: true }, { l: 'random-source', v: 'read' }], g.rng.int(0, 3)), g.read()].join(' ') },
  { name: 'uniq', weight: 1, benign: true, build: (g) => ['uniq', ...renderOptions(g, 'uniq', [{ s: 'c', l: 'count' }, { s: 'd', l: 'repeated' }], g.rng.int(0, 1)), g.read(), ...(g.chance(0.5) ? [g.write()] : [])].join(' ') },
  { name: 'test', weight: 2, benign: true, build: (g) => (g.chance(0.5) ? `test ${g.pick(['-f', '-e', '-d', '-r', '-s', '-L'])} ${g.read()}` : `[ ${g.pick(['-f', '-e', '-d', '-nt'])} ${g.read()} ]`) },
  { name: 'dd', weight: 1, benign: true, build: (g) => `dd if=${g.read()} of=${g.write()} ${g.pick(['', 'bs=1', 'count=1', 'status=none'])}`.trim() },
  { name: 'numfmt', weight: 1, benign: true, build: (g) => `numfmt ${g.pick(['1000', '--to=si 1000', '--from=iec 1K'])}` },
];

const sedScripts = (g: Gen): string => {
  const w = (): string => g.write();
  const r = (): string => g.read();
  const script = g.pick<() => string>([
    () => 'p', () => 's/a/b/', () => '1d', () => 's/alpha/ALPHA/g', () => '$!N', () => '/beta/d', () => 'y/ab/ba/', () => '1,2p',
    () => `w ${w()}`, () => `s/a/b/w ${w()}`, () => `1r ${r()}`, () => `R ${r()}`, () => `W ${w()}`, () => '1e cat link-out-file',
    () => 's/.*/cat link-out-file/e', () => `\\%a%w ${w()}`, () => `/a/Ir ${r()}`, () => `/x/,/y/w ${w()}`, () => 'e', () => `1{w ${w()}\n}`,
    () => `s|a|b|w ${w()}`, () => `0~1w ${w()}`, () => `s/a/b/;w ${w()}`,
  ])();
  if (/[wrRWe]/.test(script.replace(/^[sy]\/[^/]*\/[^/]*\/g?$/, ''))) g.hostile('lang:sed-io');
  else g.tag('lang:sed-plain');
  return script;
};

const awkPrograms = (g: Gen): string =>
  g.pick<() => string>([
    () => '{print}', () => '{print $1}', () => 'NR==1', () => 'END{print NR}', () => '{n++} END{print n}',
    () => { g.hostile('lang:awk-io'); return `{print > "${g.write()}"}`; },
    () => { g.hostile('lang:awk-io'); return `{print >> "${g.write()}"}`; },
    () => { g.hostile('lang:awk-io'); return `BEGIN{while((getline l < "${g.read()}")>0) print l}`; },
    () => { g.hostile('lang:awk-io'); return `BEGIN{system("cat ${g.read()}")}`; },
    () => { g.hostile('lang:awk-io'); return `BEGIN{ARGV[1]="${g.read()}"; ARGC=2} {print}`; },
    () => { g.hostile('lang:awk-io'); return `{print | "cat > ${g.write()}"}`; },
    () => { g.hostile('lang:awk-io'); return `BEGIN{"cat ${g.read()}" | getline x; print x}`; },
    () => { g.hostile('lang:awk-io'); return 'BEGIN{print ENVIRON["HOME"]}'; },
  ])();

const LANGS: CommandGen[] = [
  {
    name: 'sed',
    weight: 5,
    benign: true,
    build: (g) => {
      const opts = renderOptions(g, 'sed', [{ s: 'n', l: 'quiet' }, { s: 'E', l: 'regexp-extended' }, { s: 's', l: 'separate' }, { s: 'i', l: 'in-place' }, { s: 'z', l: 'null-data' }, { l: 'posix' }, { l: 'sandbox' }], g.rng.int(0, 2));
      const form = g.rng.int(0, 3);
      const script = g.benign ? g.pick(['p', 's/a/b/', '1d', '2q']) : sedScripts(g);
      const quoted = `'${script.replace(/'/g, "'\\''")}'`;
      const prog = form === 0 ? [quoted] : form === 1 ? ['-e', quoted] : form === 2 ? [`--expression=${quoted}`] : ['-f', g.benign ? 'script.sed' : g.read()];
      if (form === 3) g.tag('opt:sed:-f');
      return ['sed', ...opts, ...prog, g.read()].join(' ');
    },
  },
  {
    name: 'awk',
    weight: 4,
    benign: true,
    build: (g) => {
      const name = g.pick(['awk', 'mawk']);
      g.tag(`cmd:${name}`);
      const prog = g.benign ? g.pick(['{print}', 'NR==1', '{print $1}']) : awkPrograms(g);
      const form = g.chance(0.15) ? ['-f', g.benign ? 'prog.awk' : g.read()] : [`'${prog}'`];
      const vars = g.chance(0.2) ? ['-v', 'x=1'] : [];
      return [name, ...vars, ...form, g.read()].join(' ');
    },
  },
  {
    name: 'find',
    weight: 5,
    benign: true,
    build: (g) => {
      const head = g.chance(0.2) ? ['-L'] : [];
      if (head.length) g.hostile('opt:find:-L');
      const start = g.chance(0.7) ? g.pick(['.', 'src', 'sub']) : g.read();
      const tests = g.pick([['-name', "'*.txt'"], ['-type', 'f'], ['-maxdepth', '1'], ['-newer', g.read()], ['-path', "'*/x*'"], []]);
      const action = g.benign
        ? g.pick([['-print'], ['-print0'], [], ['-ls']])
        : g.pick<() => string[]>([
            () => ['-print'], () => [], () => ['-exec', 'cat', '{}', '\\;'], () => ['-exec', 'cat', g.read(), '\\;'], () => ['-execdir', 'cat', '{}', '+'],
            () => ['-ok', 'cat', '{}', '\\;'], () => ['-fprint', g.write()], () => ['-fls', g.write()], () => ['-fprintf', g.write(), "'%p'"],
            () => ['-delete'], () => ['-exec', 'sh', '-c', "'cat \"$1\"'", '_', '{}', '\\;'], () => ['-fprint0', g.write()], () => ['-files0-from', g.read()],
          ])();
      for (const a of action) if (a.startsWith('-') && a !== '-print') g.tag(`opt:find:${a}`);
      return ['find', ...head, start, ...tests, ...action].join(' ');
    },
  },
  {
    name: 'tar',
    weight: 4,
    benign: true,
    build: (g) => {
      const mode = g.pick<() => string[]>([
        () => ['-tf', 'archive.tar'], () => ['-xf', 'archive.tar', '-C', g.dir()], () => ['-cf', g.write(), g.read()], () => ['tf', 'archive.tar'],
        () => ['-xOf', 'archive.tar'], () => ['-czf', g.write(), g.read()], () => ['--list', '--file=archive.tar'], () => ['-cf', g.write(), '-C', g.dir(), '.'],
      ])();
      const extra = g.benign
        ? []
        : g.pick<() => string[]>([
            () => [], () => [], () => ['--to-command=cat'], () => ['--to-comm=sh\\ evil.sh'], () => ['-I', "'sh evil.sh'"], () => ['--use-compress-program=cat'],
            () => ['--use-comp', 'cat'], () => ['-h'], () => ['--dereference'], () => ['-T', g.read()], () => ['-X', g.read()], () => ['--checkpoint=1', '--checkpoint-action=exec=cat\\ link-out-file'],
            () => ['--files-from', g.read()], () => ['--absolute-names'], () => ['-P'], () => ['--directory', g.dir()],
          ])();
      for (const e of extra) if (e.startsWith('-')) g.hostile(`opt:tar:${e.split('=')[0]}`);
      return ['tar', ...mode, ...extra].join(' ');
    },
  },
  {
    name: 'git',
    weight: 5,
    benign: true,
    build: (g) => {
      const globals = g.benign
        ? g.pick([[], ['--no-pager'], ['-C', 'src']])
        : g.pick<() => string[]>([
            () => [], () => [], () => ['--no-pager'], () => ['-C', g.dir()], () => ['-C', 'nested'], () => ['-c', 'core.pager=cat'], () => ['-c', "core.pager='cat link-out-file'"],
            () => ['-c', "alias.x='!cat link-out-file'"], () => [`--git-dir=${g.read()}`], () => ['--work-tree', g.dir()], () => ['-c', 'core.fsmonitor=./evil.sh'],
            () => ['--exec-path=.'], () => ['-c', 'core.hooksPath=../outside/hooks'], () => ['--config-env=core.pager=HOME'], () => ['-c', 'diff.external=./evil.sh'],
          ])();
      for (const o of globals) if (o.startsWith('-')) g.tag(`opt:git:${o.split('=')[0]}`);
      // Every global but --no-pager and -C into the workspace changes what git runs or where it looks.
      if (!g.benign && globals.some((o) => o !== '--no-pager' && o !== '-C' && !['src', 'sub', '.', 'src/deep'].includes(o))) g.hostile();
      const sub = g.benign
        ? g.pick([['status'], ['log', '-1', '--oneline'], ['diff'], ['show', '--stat'], ['ls-files'], ['rev-parse', 'HEAD'], ['branch'], ['diff', '--stat']])
        : g.pick<() => string[]>([
            () => ['status'], () => ['log', '-1'], () => ['diff', 'HEAD'], () => ['grep', 'alpha'], () => ['grep', '-O', 'alpha'], () => ['grep', '--open-files-in-pager=cat', 'alpha'],
            () => ['log', `--output=${g.write()}`], () => ['diff', `--output=${g.write()}`], () => ['show', '--output', g.write()], () => ['archive', '-o', g.write(), 'HEAD'],
            () => ['format-patch', '-o', g.dir(), '-1'], () => ['x'], () => ['add', g.read()], () => ['config', '--get', 'core.bare'], () => ['config', 'core.pager', 'cat'],
            () => ['-C', 'nested', 'status'], () => ['ls-files'], () => ['diff', '--no-index', g.read(), g.read()], () => ['blame', g.read()], () => ['show', `HEAD:${g.read()}`],
            () => ['commit', '--allow-empty', '-m', 'x'], () => ['log', '--format=%H', '--', g.read()], () => ['difftool', '-y', '-x', 'cat'],
          ])();
      g.tag(`opt:git:${sub[0] ?? ''}`);
      // The nested repository's config runs a script: git run in it is never harmless.
      if (sub.includes('nested')) g.hostile();
      return ['git', ...globals, ...sub].join(' ');
    },
  },
];

/** Returns `text`, marking the command hostile when it matches `bad`. */
function hostileIf(g: Gen, text: string, bad: RegExp): string {
  if (bad.test(text)) g.hostile();
  return text;
}

const WRAPPED: CommandGen[] = [
  { name: 'env', weight: 2, benign: true, build: (g) => ['env', ...renderOptions(g, 'env', [{ s: 'i', l: 'ignore-environment' }, { s: 'u', l: 'unset', v: () => 'X' }, { s: 'C', l: 'chdir', v: 'dir' }, { s: 'S', l: 'split-string', v: () => "'cat link-out-file'", risky: true }], g.rng.int(0, 2)), ...(g.chance(0.3) ? [g.benign ? 'X=1' : g.pick(['X=1', 'BASH_ENV=evil.sh', 'PATH=.', 'LD_PRELOAD=./x.so'])] : []), 'cat', g.read()].join(' ') },
  { name: 'xargs', weight: 2, benign: true, build: (g) => `${hostileIf(g, g.pick(['echo a.txt', 'cat list.txt', 'cat pathfile.txt', 'printf "%s\\n" link-out-file']), /pathfile|link/)} | xargs ${renderOptions(g, 'xargs', [{ s: 'a', l: 'arg-file', v: 'read' }, { s: 'I', v: () => '{}' }, { s: 'n', l: 'max-args', v: 'num' }, { s: '0', l: 'null' }, { s: 'r', l: 'no-run-if-empty' }], g.rng.int(0, 2)).join(' ')} ${g.pick(['cat', 'echo', 'wc -l', 'head -1', 'ls'])}` },
  { name: 'timeout', weight: 1, benign: true, build: (g) => `timeout ${g.pick(['1', '-k 1 1', '--signal=KILL 1'])} cat ${g.read()}` },
  { name: 'nice', weight: 1, benign: true, build: (g) => `nice ${g.pick(['', '-n 5 ', '--adjustment=1 '])}cat ${g.read()}` },
  { name: 'nohup', weight: 1, benign: true, build: (g) => `nohup cat ${g.read()}` },
  { name: 'stdbuf', weight: 1, benign: true, build: (g) => `stdbuf -oL cat ${g.read()}` },
  { name: 'time', weight: 1, benign: true, build: (g) => `time ${g.pick(['', '-p '])}cat ${g.read()}` },
  { name: 'command', weight: 1, benign: false, build: (g) => { g.hostile(); return `${g.pick(['command', 'builtin', 'exec', 'command -p'])} cat ${g.read()}`; } },
  { name: 'bash-c', weight: 2, benign: false, build: (g) => { g.hostile(); return `${g.pick(['bash -c', 'sh -c', 'eval', 'bash -lc'])} ${g.pick(['"cat $0"', "'cat link-out-file'", `"cat ${g.read()}"`, "'echo hi'"])}${g.chance(0.3) ? ` ${g.read()}` : ''}`; } },
];

const PATH_FREE: CommandGen[] = [
  { name: 'echo', weight: 3, benign: true, build: (g) => `echo ${g.pick(['hi', '"$PWD"', '$((1+2))', "'a b'", '${#PWD}', '$HOME', '"${PWD##*/}"', '{a,b}', '$((16#ff))'])}` },
  { name: 'printf', weight: 2, benign: true, build: (g) => `printf ${g.pick(["'%s\\n' x", "'%d\\n' 3", '"%s" "$PWD"', "'%q\\n' a"])}` },
  { name: 'pwd', weight: 1, benign: true, build: (g) => g.pick(['pwd', 'pwd -P', 'pwd -L']) },
  { name: 'seq', weight: 1, benign: true, build: (g) => `seq ${g.pick(['3', '1 3', '-s, 3'])}` },
  { name: 'basename', weight: 1, benign: true, build: (g) => `basename ${g.read()}` },
  { name: 'true', weight: 1, benign: true, build: (g) => g.pick(['true', ':', 'false']) },
  { name: 'trap', weight: 1, benign: true, build: (g) => (g.benign ? "trap '' TERM" : hostileIf(g, g.pick(["trap '' TERM", "trap 'cat link-out-file' EXIT", "trap 'cat ../outside/secret.txt' EXIT", 'trap - INT']), /link|outside/)) },
  { name: 'type', weight: 1, benign: true, build: (g) => `${g.pick(['type', 'which', 'command -v'])} ${g.pick(['ls', 'cat', 'git'])}` },
];

/** The builtins that change later commands (family 1) and the expansions bash evaluates (family 2). */
const STATEFUL: CommandGen[] = [
  {
    name: 'state-builtin',
    weight: 5,
    benign: false,
    build: (g) => {
      g.hostile('family:1');
      const name = g.pick([
        'hash -p /bin/sh ls; ls evil.sh', 'hash -p @B@/ws/evil.sh cat; cat a.txt', 'shopt -s cdable_vars; o=@B@/outside; cd o; cat secret.txt',
        'set -a; read BASH_ENV <<< ./evil.sh; bash -c true', 'printf -v CDPATH %s ..; cd outside && cat secret.txt', 'declare -n r=PATH; r=.; ls',
        'CDPATH=.. cd outside; cat secret.txt', 'export PATH=.:$PATH; ls', 'read -r F < pathfile.txt; cat "$F"', 'IFS=/ read -r a b <<< "x/y"; echo $a',
        'BASH_ENV=./evil.sh bash -c true', 'source ./evil.sh', '. ./evil.sh', 'exec 3< link-out-file; cat <&3', 'mapfile -t L < pathfile.txt; cat "${L[0]}"',
        'readarray L < pathfile.txt; cat ${L[0]}', 'shopt -s expand_aliases; alias cat="cat link-out-file"; cat a.txt', 'declare -x BASH_ENV=evil.sh; bash -c :',
        'printf -v F %s ../outside/secret.txt; cat "$F"', 'read F <<< link-out-file; cat $F', 'cd -P self/..; cat outside/secret.txt', 'pushd ../outside; cat secret.txt',
        'set -o allexport; PS4=\'$(cat link-out-file)\'; set -x; true', 'enable -n cd; cd ..; ls', 'shopt -s globstar; cat **/secret.txt', 'shopt -s dotglob nullglob; cat *',
        'ulimit -c 0; cat a.txt', 'umask 022; touch new.txt', 'HISTFILE=../outside/pwned history -w', 'declare -A m=([k]=link-out-file); cat "${m[k]}"', 'getopts a: o -a ../outside/secret.txt; cat "$OPTARG"',
        'unset PATH; cat a.txt', 'typeset -n p=HOME; cat "$p/secret.txt"', 'let "x = 1"; echo $x', 'export -f f 2>/dev/null; env',
      ]);
      g.tag(`builtin:${name.split(/[ ;]/)[0]}`);
      return name;
    },
  },
  {
    name: 'arith-eval',
    weight: 3,
    benign: false,
    build: (g) => {
      g.hostile('family:2');
      return g.pick([
        "let 'x=a[$(cat link-out-file >&2)]'", "declare -i x='a[$(cat link-out-file >&2)]'", "x='a[$(cat ../outside/secret.txt >&2)]'; echo $((x))",
        "unset 'a[$(cat link-out-file >&2)]'", "printf -v 'a[$(cat link-out-file >&2)]' %s x", "[[ 1 -eq 'a[$(cat link-out-file >&2)]' ]]",
        "(( a[$(cat link-out-file >&2)] ))", "v='$(cat link-out-file)'; echo ${v@P}", "v='\\x41'; echo ${v@E}", 'R=F; F=link-out-file; cat "${!R}"',
        "x='a[$(cat link-out-file >&2)]'; [ 1 -eq $x ]", "declare a=(1); echo ${a[$(cat link-out-file >&2)]}", "test 1 -eq 'a[$(cat link-out-file >&2)]'",
        "x='a[$(cat link-out-file >&2)]'; : ${x:$x}", "read -r x <<< 'a[$(cat link-out-file >&2)]'; echo $((x))", "export x='a[$(cat link-out-file >&2)]'; bash -c 'echo $((x))'",
        "for ((i='a[$(cat link-out-file >&2)]'; i<1; i++)); do :; done", "case x in $(cat link-out-file)) ;; esac", "echo $(( $(cat a.txt | wc -l) + 1 ))",
      ]);
    },
  },
  {
    name: 'heredoc-quirk',
    weight: 3,
    benign: false,
    build: (g) => {
      g.hostile('family:6');
      return g.pick([
        'cat <<E"O"F\n$(cat link-out-file)\nEOF\n', 'cat <<-EOF\n\t$(cat link-out-file)\n  EOF\nEOF\n', 'cat <<A <<B\na\nA\n$(cat link-out-file)\nB\n',
        'cat <<EOF\n$(cat link-out-file)', "eval 'cat <<EOF\n$(cat link-out-file)\nEOF'", "cat <<'EOF'\n$(cat link-out-file)\nEOF\n",
        'cat << EOF\n`cat link-out-file`\nEOF\n', 'cat <<\\EOF\n$(cat link-out-file)\nEOF\n', 'cat <<EOF | sh\ncat link-out-file\nEOF\n',
        'cat <<EOF > out.txt\n${HOME}\nEOF\n', 'cat <<EOF\n$((1+2))\nEOF\n', "cat <<'E'F\n$(cat link-out-file)\nEF\n", 'cat <<EOF; cat link-out-file\nx\nEOF\n',
        'while read l; do cat "$l"; done <<EOF\nlink-out-file\nEOF\n', 'cat <<<"$(cat link-out-file)"', 'bash <<EOF\ncat link-out-file\nEOF\n',
        // Delimiter lines bash and a careless reading match differently (issue 29), with the payload after them.
        'cat <<EOF\nEO\\\nF\ncat link-out-file\nEOF\n', 'cat <<-EOF\n\t\tEOF\ncat link-out-file\nEOF\n', 'cat <<-EOF\n  EOF\ncat link-out-file\nEOF\n',
        "cat <<'EOF '\nEOF \ncat link-out-file\nEOF\n", 'cat <<"E\\"F"\nE"F\ncat link-out-file\nE\\"F\n', "cat <<''\n\ncat link-out-file\n",
        'cat <<A; cat <<B\nA\nB\ncat link-out-file\n', 'echo $(cat <<EOF\nhi\nEOF cat link-out-file)\n', 'cat <<EOF link-out-file\nhi\nEOF\n',
        'x=$(cat <<A; cat <<B\nA cat link-out-file)\nbody\nB\necho "$x"\n', 'echo $(cat <<EOF) x\n$(cat link-out-file)\nEOF\n',
        'cat <<EOF\n`echo \\" ; cat link-out-file ; echo \\"`\nEOF\n', "bash -c 'cat <<EOF\n$(cat link-out-file)\nEOF\n'", 'echo $((1<<2))\ncat link-out-file\n',
      ]);
    },
  },
];

/**
 * One of `harmless` (the near misses, which stay inside) or, unless benign, of `hostile` (marked so, with `tag`):
 * for the shapes whose attack lies in the sequence, not in one path word.
 */
function either(g: Gen, tag: string, harmless: readonly string[], hostile: readonly string[]): string {
  const pool = g.benign ? harmless : [...harmless, ...hostile];
  const text = g.pick([...pool]);
  if (hostile.includes(text)) g.hostile(tag);
  else g.tag(tag);
  return text;
}

// Link names the fixture does not hold, and what a link made in the line may point to.
const LINK_NAMES = ['lnk', 'h', 'r', 'sub/l'];
const SAFE_TARGETS = ['src', 'a.txt', 'sub', 'src/x.ts', '../ro', '../ro/ref.txt'];
const BAD_TARGETS = ['.git/hooks', '.git', '../outside', '../outside/secret.txt', '..', 'self', '/etc', 'link-out-dir', 'nested/.git'];

/**
 * What a command line does to the tree and a later command follows: archives extracted (evil.tar's members are a
 * link out then a member through it, `.bashrc`, `../` and absolute names), git writing the tree from the
 * repository (which tracks `.vscode/settings.json` and a link out, missing from the tree), links made and then
 * written or read through, copies and renames of blocked directories.
 */
const LINE_EFFECTS: CommandGen[] = [
  {
    name: 'archive',
    weight: 3,
    benign: true,
    build: (g) =>
      either(g, 'effect:archive',
        ['tar -xOf evil.tar', 'tar -tvf evil.tar', 'tar -tf evil.tar', 'tar -xOf archive.tar', 'tar -x --to-stdout -f archive.tar a.txt', 'tar -cf o.tar src', 'tar -cf o.tar --remove-files sub', 'tar -czf o.tgz -C src .', 'unzip -l evil.zip', 'unzip -p evil.zip x'],
        ['tar -xf evil.tar', `tar -xf evil.tar -C ${g.dir()}`, 'tar xf evil.tar lnout lnout/pwned', 'tar -xkf evil.tar .bashrc', 'tar -xPf evil.tar', 'tar --extract --file=evil.tar .vscode/settings.json', 'cat evil.tar | tar -x',
          'tar -cf o.tar --remove-files .git/hooks', 'tar -cf o.tar --remove-files nested', 'unzip -o evil.zip', 'tar -xf evil.tar && cat lnout/secret.txt']),
  },
  {
    name: 'git-writer',
    weight: 3,
    benign: true,
    build: (g) =>
      either(g, 'effect:git-writer',
        ['git checkout -b topic', 'git switch -c topic', 'git rm -q --cached a.txt', 'git restore --staged a.txt', 'git reset -q HEAD^', 'git reset -q --soft HEAD^', 'git stash list', 'git mv a.txt c.txt', 'git status --short', 'git log --oneline -2', 'git diff HEAD^ --stat', 'git apply --check /dev/null'],
        ['git checkout -- .', 'git rm -rq sub && echo x > sub && mv sub nested/.git', 'git checkout -q HEAD -- tracked-out && cat tracked-out/secret.txt', 'git restore .', 'git reset -q --hard', 'git stash -q', 'git stash -q && git stash pop -q', `git init -q ${g.write()}`,
          'git init -q n2', 'git clone -q nested n3', 'git worktree add -q wt2', `git mv a.txt ${g.write()}`, 'git mv a.txt .bashrc', 'git checkout -q HEAD~1', 'git switch -q --detach HEAD~1']),
  },
  {
    name: 'link-then',
    weight: 5,
    benign: true,
    build: (g) => {
      const name = g.pick(LINK_NAMES);
      const bad = !g.benign && g.chance(0.6);
      const target = g.pick(bad ? BAD_TARGETS : SAFE_TARGETS);
      const leaf = g.pick(['ref.txt', 'pre-commit', 'hooks/pre-commit', 'secret.txt', 'x.ts', 'new.txt']);
      const act = g.pick([`echo x > ${name}/${leaf}`, `cat ${name}/${leaf}`, `cp a.txt ${name}/`, `echo x >> ${name}`, `cat ${name}`, `tee ${name}/${leaf} < a.txt`, `ls ${name}/`]);
      const writes = /^(echo|cp|tee)/.test(act);
      // A link to a read root is harmless to read through, not to write through; links to .git or out never are.
      if (bad || (writes && target.startsWith('../ro'))) g.hostile('effect:link-then');
      else g.tag('effect:link-then');
      return g.pick([
        `ln -s ${target} ${name} && ${act}`,
        `ln -sf ${target} ${name}; ${act}`,
        `true; for i in 1 2; do ${act}; ln -sfn ${target} ${name}; done`,
        `ln -s ${target} ${name} && (${act})`,
        `ln -s ${target} ${name} | true; ${act}`,
      ]);
    },
  },
  {
    name: 'carry-link',
    weight: 2,
    benign: true,
    build: (g) =>
      either(g, 'effect:carry-link',
        ['cp -r src dst && cat dst/x.ts', 'mv sub sub2 && cat sub2/inner.txt', 'cp -a sub sub3 && cat sub3/inner.txt', 'cp -l a.txt hard && echo x >> hard', 'mv src-link s2 && cat s2/x.ts'],
        ['mv link-out-dir foo && cat foo/secret.txt', 'mv rel-out foo; cat foo/secret.txt', 'cp -P link-out-file foo; cat foo', 'cp -a link-out-dir foo; cat foo/secret.txt', 'cp -l ../ro/ref.txt x; echo hi >> x',
          'cp -s ../ro/ref.txt x; echo hi >> x', 'mkdir d && ln -s ../.. d/up && cat d/up/outside/secret.txt', 'ln -sr ../outside/secret.txt sub/l && cat sub/l',
          'mkdir t; ln -s ../../ro t/r; mv t t2; echo x > t2/r/ref.txt']),
  },
  {
    name: 'rename-blocked',
    weight: 2,
    benign: true,
    build: (g) =>
      either(g, 'effect:rename-blocked',
        ['mv src/* sub/', 'cp -r src dst', 'mkdir -p x/.git; mv sub x/.git', 'mv a.txt c.txt && cat c.txt'],
        ['mv .git g && echo x > g/hooks/pre-commit', 'mv nested n2', 'cp -r nested n2', 'mv nested/.git ng', 'mkdir -p q/.git && mv sub q/.git/hooks', 'mv a.txt .bashrc', 'cp a.txt .vscode/settings.json',
          'mv sub .vscode', 'mkdir -p x/.git; mkdir hooks; touch hooks/pre-commit; mv hooks x/.git', 'cp -r nested/.git n2.git']),
  },
];

/** Every command generator, by name. */
export const COMMAND_GENS: readonly CommandGen[] = [...READERS, ...WRITERS, ...FILE_OPS, ...LANGS, ...WRAPPED, ...PATH_FREE, ...STATEFUL, ...LINE_EFFECTS, FOLLOW_LINKS];
