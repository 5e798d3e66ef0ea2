import { syntheticWord } from './commands/api.js';
import { parseKnown } from './commands/options.js';
import { COMMANDS } from './commands/registry.js';
import { assignmentProblem, checkStateBuiltin, taintUnlessInteger } from './builtins.js';
import { unchanged, unionCwds, type Cwds, type Outcome } from './cwd.js';
import { changeDirectory, type RunOptions, type Scope } from './scope.js';
import type { Word } from './words.js';

const DECLARATIONS = new Set(['export', 'declare', 'local', 'readonly', 'typeset']);
const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);

/** Checks one simple command given as words, and says where the working directory is afterwards. */
export function runCommand(scope: Scope, words: Word[], cwds: Cwds, text: string, opts: RunOptions): Outcome {
  const [nameWord, ...args] = words;
  if (nameWord === undefined) return unchanged(cwds);
  const rec = scope.rec;
  rec.command({ name: nameWord.value ?? nameWord.source, argv: words.map((w) => w.value ?? w.source), text });
  if (nameWord.value === null) {
    rec.unresolvedWord(nameWord.source, text, 'the command name is only known at run time');
    return unchanged(unionCwds(cwds, [null]));
  }
  const name = nameWord.value;
  const api = scope.api(cwds, text, name);
  // Bash looks functions up before builtins: `cd() {...}; cd x` runs the function.
  const body = opts.functions ? scope.functions.get(name) : undefined;
  if (body !== undefined) {
    for (let p = 0; p < 10; p++) scope.tainted.add(String(p));
    return scope.callFunction(body, cwds);
  }
  if (checkStateBuiltin(scope, name, args, api)) return unchanged(cwds);
  switch (name) {
    case 'cd':
    case 'pushd':
      return changeInto(scope, args, cwds, text, name);
    case 'popd':
      return { ok: [null], fail: cwds };
    case 'command':
    case 'builtin':
    case 'exec': {
      const parsed = parseKnown(args, { short: name === 'exec' ? 'a:cl' : name === 'command' ? 'pvV' : '', stopAtOperand: true }, api);
      if (parsed.options.some((o) => o.name === 'v' || o.name === 'V')) return unchanged(cwds);
      if (parsed.options.some((o) => o.name === 'p')) api.unresolved('-p', 'command -p looks the program up in a default PATH the check does not follow', 'unknown');
      return scope.run(args.slice(parsed.rest), cwds, undefined, { functions: false });
    }
    case 'eval':
      return runSource(scope, args, cwds, text, false);
    case 'source':
    case '.':
      if (args[0]) api.read(args[0]);
      rec.unknown(name);
      return { ok: unionCwds(cwds, [null]), fail: unionCwds(cwds, [null]) };
    case 'kill':
    case 'pkill':
    case 'killall':
      // Signals can reach the host process and other sessions; only an OS sandbox can scope them.
      rec.unknown(name);
      return unchanged(cwds);
  }
  if (DECLARATIONS.has(name)) {
    checkDeclaration(scope, args, api);
    return unchanged(cwds);
  }
  if (SHELLS.has(name)) return runShell(scope, args, cwds, text, name);
  const extractor = COMMANDS.get(name);
  if (extractor) {
    extractor(args, api);
  } else {
    rec.unknown(name);
    if (name.includes('/')) api.read(nameWord);
  }
  return unchanged(cwds);
}

// `declare`, `export`, `local`, `readonly`, `typeset` reached as words (through `command`, `builtin`, `env`...).
function checkDeclaration(scope: Scope, args: Word[], api: ReturnType<Scope['api']>): void {
  for (const word of args) {
    if (word.value === null) {
      api.unresolved(word, 'a declaration only known at run time');
      continue;
    }
    if (/^-[a-zA-Z]*[niaA]/.test(word.value)) api.unresolved(word, `declare ${word.value} makes later assignments references or arithmetic, which the check does not follow`);
    if (word.value.startsWith('-') || word.value.startsWith('+')) continue;
    const name = word.value.split('=')[0] ?? '';
    const problem = assignmentProblem(name.replace(/\+$/, ''), scope);
    if (problem !== null) api.unresolved(word, problem);
    taintUnlessInteger(scope, name, word.value.includes('=') ? word.value.slice(name.length + 1) : '0');
  }
}

function changeInto(scope: Scope, args: Word[], cwds: Cwds, text: string, name: string): Outcome {
  const parsed = parseKnown(args, { short: 'L' }, scope.api(cwds, text, name));
  const target = parsed.operands[0] ?? (name === 'cd' ? syntheticWord(scope.ctx.home) : null);
  const stackEntry = target?.value !== null && target?.value !== undefined && /^[-+]\d*$/.test(target.value);
  if (target === null || stackEntry) {
    scope.rec.unresolvedWord(target?.source ?? name, text, `${name} to a directory-stack entry the check cannot follow`);
    return { ok: [null], fail: cwds };
  }
  if (target.value === null) {
    scope.rec.unresolvedWord(target.source, text, target.reason);
    return { ok: [null], fail: cwds };
  }
  scope.rec.access(target, 'read', cwds, text);
  return { ok: changeDirectory(cwds, target), fail: cwds };
}

function runSource(scope: Scope, args: Word[], cwds: Cwds, text: string, subshell: boolean): Outcome {
  const dynamic = args.find((w) => w.value === null);
  if (dynamic) {
    scope.rec.unresolvedWord(dynamic.source, text, 'code built at run time is not checked');
    return { ok: [null], fail: [null] };
  }
  const outcome = scope.walkSource(args.map((w) => w.value).join(' '), cwds);
  return subshell ? unchanged(cwds) : outcome;
}

function runShell(scope: Scope, args: Word[], cwds: Cwds, text: string, name: string): Outcome {
  const parsed = parseKnown(args, { short: 'c:eEfhuvxBCH', long: ['norc', 'noprofile', 'posix', 'noediting', 'verbose'], stopAtOperand: true }, scope.api(cwds, text, name));
  const inline = parsed.options.find((o) => o.name === 'c');
  if (inline?.value) return runSource(scope, [inline.value], cwds, text, true);
  const script = args[parsed.rest];
  if (script) scope.api(cwds, text, name).read(script);
  scope.rec.unknown(name);
  return unchanged(cwds);
}
