import { syntheticWord } from './commands/api.js';
import { parseOptions } from './commands/options.js';
import { COMMANDS } from './commands/registry.js';
import { checkAssignment } from './commands/wrappers.js';
import { unchanged, unionCwds, type Cwds, type Outcome } from './cwd.js';
import { changeDirectory, type Scope } from './scope.js';
import type { Word } from './words.js';

const DECLARATIONS = new Set(['export', 'declare', 'local', 'readonly', 'typeset']);
const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);

/** Checks one simple command given as words, and says where the working directory is afterwards. */
export function runCommand(scope: Scope, words: Word[], cwds: Cwds, text: string): Outcome {
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
  switch (name) {
    case 'cd':
    case 'pushd':
      return changeInto(scope, args, cwds, text, name);
    case 'popd':
      return { ok: [null], fail: cwds };
    case 'command':
    case 'builtin':
    case 'exec': {
      const parsed = parseOptions(args, { short: 'a', stopAtOperand: true });
      if (parsed.options.some((o) => o.name === 'v' || o.name === 'V')) return unchanged(cwds);
      return scope.run(args.slice(parsed.rest), cwds);
    }
    case 'eval':
      return runSource(scope, args, cwds, text, false);
    case 'source':
    case '.':
      if (args[0]) api.read(args[0]);
      rec.unknown(name);
      return { ok: unionCwds(cwds, [null]), fail: unionCwds(cwds, [null]) };
    case 'trap':
      if (args.length > 1 && args[0]?.value !== '-') api.unresolved(args[0] ?? 'trap', 'trap runs a command string later, which is not checked');
      return unchanged(cwds);
    case 'alias':
      if (args.some((w) => w.value === null || w.value.includes('='))) api.unresolved('alias', 'an alias changes what later commands run');
      return unchanged(cwds);
    case 'kill':
    case 'pkill':
    case 'killall':
      // Signals can reach the host process and other sessions; only an OS sandbox can scope them.
      rec.unknown(name);
      return unchanged(cwds);
  }
  if (DECLARATIONS.has(name)) for (const word of args) checkAssignment(word, (w, reason) => api.unresolved(w, reason));
  if (SHELLS.has(name)) return runShell(scope, args, cwds, text, name);
  const fn = scope.functions.get(name);
  if (fn) return fn.changesCwd ? { ok: unionCwds(cwds, [null]), fail: unionCwds(cwds, [null]) } : unchanged(cwds);
  const extractor = COMMANDS.get(name);
  if (extractor) {
    extractor(args, api);
  } else {
    rec.unknown(name);
    if (name.includes('/')) api.read(nameWord);
  }
  return unchanged(cwds);
}

function changeInto(scope: Scope, args: Word[], cwds: Cwds, text: string, name: string): Outcome {
  const parsed = parseOptions(args, {});
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
  const parsed = parseOptions(args, { short: 'cO', long: ['rcfile', 'init-file'], stopAtOperand: true });
  const inline = parsed.options.find((o) => o.name === 'c');
  if (inline?.value) return runSource(scope, [inline.value], cwds, text, true);
  const script = args[parsed.rest];
  if (script) scope.api(cwds, text, name).read(script);
  scope.rec.unknown(name);
  return unchanged(cwds);
}
