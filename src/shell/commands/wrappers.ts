import type { Word } from '../words.js';
import { syntheticWord, type Extractor } from './api.js';
import { hasOption, optionValues, parseOptions, type OptionSpec } from './options.js';

/** A wrapper whose inner command starts after its options (and `skip` leading operands, like timeout's duration). */
function wrapper(spec: OptionSpec, skip = 0): Extractor {
  return (args, api) => {
    const parsed = parseOptions(args, { ...spec, stopAtOperand: true });
    const inner = args.slice(parsed.rest + skip);
    if (inner.length > 0) api.run(inner);
  };
}

/** env: assignments and `-u` are harmless, `-C DIR` changes directory, `-S` splits a string the check cannot see. */
export const envCommand: Extractor = (args, outer) => {
  const parsed = parseOptions(args, { short: 'uCS', long: ['unset', 'chdir', 'split-string', 'default-signal', 'ignore-signal', 'block-signal'], stopAtOperand: true });
  let api = outer;
  for (const dir of optionValues(parsed, 'C', 'chdir')) api = api.chdir(dir);
  for (const text of optionValues(parsed, 'S', 'split-string')) api.unresolved(text, 'env -S splits a string into a command, which is not checked');
  let rest = parsed.rest;
  while (rest < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[rest]?.value ?? '')) {
    checkAssignment(args[rest] as Word, api.unresolved.bind(api));
    rest++;
  }
  if (rest < args.length) api.run(args.slice(rest));
};

/** sudo: always asks (it runs as another user), and its inner command is checked too. */
export const sudoCommand: Extractor = (args, outer) => {
  const parsed = parseOptions(args, { short: 'ugCDhprtUTR', long: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'other-user', 'command-timeout', 'chroot'], stopAtOperand: true });
  outer.unresolved('sudo', 'sudo runs the command as another user, outside the checked permissions');
  let api = outer;
  for (const dir of optionValues(parsed, 'D', 'chdir', 'R', 'chroot')) api = api.chdir(dir);
  if (parsed.rest < args.length) api.run(args.slice(parsed.rest));
};

/** xargs: the inner command is checked, but the operands it gets come from input the check cannot see. */
export const xargsCommand: Extractor = (args, api) => {
  const parsed = parseOptions(args, { short: 'adEILnPs', long: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'], attached: 'ile', stopAtOperand: true });
  for (const file of optionValues(parsed, 'a', 'arg-file')) api.read(file);
  const inner = parsed.rest < args.length ? args.slice(parsed.rest) : [syntheticWord('echo')];
  const name = inner[0]?.value ?? '';
  if (!XARGS_SAFE.has(name)) api.unresolved(inner[0] ?? 'xargs', `xargs passes operands read from input to ${name || 'a command'}, which cannot be checked`);
  const replace = optionValues(parsed, 'I', 'replace', 'i')[0]?.value ?? (hasOption(parsed, 'i', 'replace') ? '{}' : null);
  api.run(replace === null ? inner : inner.filter((w) => !w.value?.includes(replace)));
};

// Commands that treat their operands as data, so xargs feeding them unknown operands reaches no file.
const XARGS_SAFE = new Set(['echo', 'printf', 'true', 'false', 'basename', 'dirname', 'expr', 'seq', 'sleep']);

/** Why an assignment is risky (it changes which programs run or where files go), reported through `unresolved`. */
export function checkAssignment(word: Word, unresolved: (word: Word, reason: string) => void): void {
  const name = word.value?.split('=')[0] ?? '';
  if (RISKY_VARIABLES.test(name)) unresolved(word, `assigning ${name} changes which programs run or which files they use, which is not checked`);
}

/** Environment variables that change which programs run, what they load or where they look for files. */
export const RISKY_VARIABLES = /^(PATH|HOME|CDPATH|IFS|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|PAGER|EDITOR|VISUAL|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5LIB|PERL5OPT|RUBYOPT|LD_\w+|GIT_\w+|DYLD_\w+|TMPDIR)$/;

/** Wrappers that run their operands as a command, keyed by name. */
export const WRAPPERS: Readonly<Record<string, Extractor>> = {
  env: envCommand,
  sudo: sudoCommand,
  doas: sudoCommand,
  xargs: xargsCommand,
  timeout: wrapper({ short: 'sk', long: ['signal', 'kill-after'] }, 1),
  nice: wrapper({ short: 'n', long: ['adjustment'] }),
  nohup: wrapper({}),
  stdbuf: wrapper({ short: 'ioe', long: ['input', 'output', 'error'] }),
  ionice: wrapper({ short: 'cnpP', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] }),
  setsid: wrapper({}),
  chrt: wrapper({}, 1),
  time: wrapper({ short: 'fo', long: ['format', 'output'] }),
};
