import { arithmeticIsSafe, isIntegerLiteral } from './arith.js';
import type { CommandApi } from './commands/api.js';
import { parseOptions } from './commands/options.js';
import { RISKY_VARIABLES } from './commands/wrappers.js';
import type { Scope } from './scope.js';
import type { Word } from './words.js';

const STEERS = 'changes how later commands are looked up, expanded or run, which the check does not follow';

// `set` options that change nothing the check relies on (lookup, expansion, cd, assignment): all others ask.
const SAFE_SET_FLAGS = new Set('euxvCnhmbBHf'.split(''));
const SAFE_SET_NAMES = new Set(['pipefail', 'errexit', 'nounset', 'xtrace', 'verbose', 'noclobber', 'noglob', 'notify', 'monitor', 'hashall', 'braceexpand', 'histexpand', 'history', 'emacs', 'vi', 'ignoreeof', 'interactive-comments', 'noexec', 'errtrace']);
// shopt options that change no expansion, lookup or sourcing.
const SAFE_SHOPT = new Set(['checkwinsize', 'histappend', 'cmdhist', 'lithist', 'histverify', 'histreedit', 'checkjobs', 'huponexit', 'progcomp', 'hostcomplete', 'no_empty_cmd_completion', 'nocasematch', 'inherit_errexit', 'xpg_echo', 'shift_verbose', 'mailwarn', 'checkhash', 'direxpand', 'dirspell', 'complete_fullquote', 'force_fignore', 'gnu_errfmt', 'interactive_comments', 'promptvars', 'extquote', 'lastpipe']);

/** Why assigning the variable `name` (as written, maybe `a[i]`) is not safe, or null. */
export function assignmentProblem(name: string, scope: Scope): string | null {
  const subscript = /^([A-Za-z_]\w*)\[(.*)\]$/s.exec(name);
  if (subscript) return arithmeticIsSafe(subscript[2] as string, scope.tainted) ? null : `the subscript of ${name} is evaluated as arithmetic and may run code`;
  if (!/^[A-Za-z_]\w*$/.test(name)) return `${name} is not a plain variable name`;
  if (RISKY_VARIABLES.test(name)) return `assigning ${name} ${STEERS}`;
  return null;
}

/** Checks the variables a builtin assigns (read, mapfile, printf -v, getopts): risky names ask; all become tainted. */
function assigns(scope: Scope, api: CommandApi, names: readonly (Word | undefined)[]): void {
  for (const word of names) {
    if (word === undefined) continue;
    if (word.value === null) {
      api.unresolved(word, 'the variable name is only known at run time');
      continue;
    }
    const problem = assignmentProblem(word.value, scope);
    if (problem !== null) api.unresolved(word, problem);
    const plain = word.value.replace(/\[.*$/s, '');
    if (scope.integers.has(plain)) api.unresolved(word, `${plain} is an integer variable: the value assigned to it is evaluated as arithmetic, which may run code`);
    scope.tainted.add(plain);
  }
}

/**
 * State-changing builtins: what they do to the shell decides what later commands do, so each is allowed only in
 * forms known to leave lookup, expansion and the environment alone. Returns false when `name` is not one of them.
 */
export function checkStateBuiltin(scope: Scope, name: string, args: Word[], api: CommandApi): boolean {
  switch (name) {
    case 'hash': {
      const parsed = parseOptions(args, { short: 'lrp:dt' });
      if (parsed.unknown.length > 0 || parsed.options.some((o) => o.name === 'p')) api.unresolved('hash', `hash -p ${STEERS}`);
      return true;
    }
    case 'shopt': {
      const parsed = parseOptions(args, { short: 'pqsuo' });
      const changes = parsed.options.some((o) => o.name === 's' || o.name === 'u');
      const unsafe = parsed.unknown.length > 0 || (changes && (parsed.options.some((o) => o.name === 'o') || parsed.operands.some((w) => w.value === null || !SAFE_SHOPT.has(w.value))));
      if (unsafe) api.unresolved('shopt', `this shopt ${STEERS}`);
      return true;
    }
    case 'set':
      checkSet(scope, args, api);
      return true;
    case 'read': {
      const parsed = parseOptions(args, { short: 'a:d:ei:n:N:p:rst:u:' });
      if (parsed.unknown.length > 0) api.unresolved('read', 'a read option the checker does not know', 'unknown');
      assigns(scope, api, [...parsed.operands, ...parsed.options.filter((o) => o.name === 'a').map((o) => o.value ?? undefined)]);
      if (parsed.operands.length === 0 && !parsed.options.some((o) => o.name === 'a')) scope.tainted.add('REPLY');
      return true;
    }
    case 'mapfile':
    case 'readarray': {
      const parsed = parseOptions(args, { short: 'd:n:O:s:tu:C:c:' });
      if (parsed.unknown.length > 0 || parsed.options.some((o) => o.name === 'C')) api.unresolved(name, `${name} -C runs a callback, which is not checked`);
      assigns(scope, api, parsed.operands.length > 0 ? parsed.operands : []);
      scope.tainted.add(parsed.operands[0]?.value ?? 'MAPFILE');
      return true;
    }
    case 'printf': {
      const target = args[0]?.value === '-v' ? args[1] : args[0]?.value?.startsWith('-v') === true ? { ...(args[0] as Word), value: (args[0] as Word).value?.slice(2) ?? null } : undefined;
      if (target !== undefined) assigns(scope, api, [target]);
      return true;
    }
    case 'wait': {
      // `wait -p NAME` assigns the pid of the job that ended to NAME (a subscript in it is evaluated).
      const parsed = parseOptions(args, { short: 'fnp:' });
      if (parsed.unknown.length > 0) api.unresolved('wait', 'a wait option the checker does not know', 'unknown');
      assigns(scope, api, parsed.options.filter((o) => o.name === 'p').map((o) => o.value ?? undefined));
      return true;
    }
    case 'getopts':
      assigns(scope, api, [args[1]]);
      scope.tainted.add('OPTARG');
      return true;
    case 'let':
      for (const word of args) {
        if (word.value === null || !arithmeticIsSafe(word.value, scope.tainted)) api.unresolved(word, 'let evaluates this as arithmetic, which may run code (array subscripts, variables holding them)');
        const assigned = /^\s*([A-Za-z_]\w*)\s*[-+*/%&|^]?=/.exec(word.value ?? '');
        if (assigned && RISKY_VARIABLES.test(assigned[1] as string)) api.unresolved(word, `assigning ${assigned[1]} ${STEERS}`);
      }
      return true;
    case 'unset':
      for (const word of args) {
        if (word.value === null || word.value.includes('[')) api.unresolved(word, 'unset evaluates an array subscript, which may run code');
      }
      return true;
    case 'enable':
      if (args.some((w) => w.value === null || !/^-[aps]+$/.test(w.value))) api.unresolved('enable', `enable ${STEERS}`);
      return true;
    case 'alias':
      if (args.some((w) => w.value === null || w.value.includes('='))) api.unresolved('alias', 'an alias changes what later commands run', 'unknown');
      return true;
    case 'trap': {
      const parsed = parseOptions(args, { short: 'lpP' });
      const [action, ...signals] = parsed.operands;
      const harmless = action === undefined || signals.length === 0 || action.value === '' || action.value === '-' || (action.value !== null && /^\d+$/.test(action.value));
      if (!harmless) api.unresolved(action ?? 'trap', 'trap runs a command string later, which is not checked', 'unknown');
      return true;
    }
    default:
      return false;
  }
}

function checkSet(scope: Scope, args: Word[], api: CommandApi): void {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]?.value;
    if (text === null || text === undefined) {
      api.unresolved(args[i] as Word, 'a set argument only known at run time');
      return;
    }
    if (text === '--' || text === '-' || !/^[-+]/.test(text)) {
      for (let p = 0; p < 10; p++) scope.tainted.add(String(p));
      return;
    }
    for (const flag of text.slice(1)) {
      if (flag === 'o') {
        const option = args[++i]?.value;
        if (option !== undefined && (option === null || !SAFE_SET_NAMES.has(option))) api.unresolved(`set ${text} ${option ?? ''}`, `this set option ${STEERS}`);
      } else if (!SAFE_SET_FLAGS.has(flag)) api.unresolved(`set ${text}`, `set -${flag} ${STEERS}`);
    }
  }
}

/** Whether an assignment's value keeps its variable safe in arithmetic. */
export function taintUnlessInteger(scope: Scope, name: string, value: string | null): void {
  if (!isIntegerLiteral(value)) scope.tainted.add(name);
}
