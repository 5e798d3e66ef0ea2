import type { Word } from '../words.js';
import { syntheticWord, type Extractor } from './api.js';
import { hasOption, optionValues, parseKnown, parseOptions, type OptionSpec } from './options.js';

/** A wrapper whose inner command starts after its options (and `skip` leading operands, like timeout's duration). */
function wrapper(spec: OptionSpec, skip = 0, writes: readonly string[] = []): Extractor {
  return (args, api) => {
    const parsed = parseKnown(args, { ...spec, stopAtOperand: true }, api);
    for (const file of optionValues(parsed, ...writes)) api.write(file);
    const inner = args.slice(parsed.rest + skip);
    if (inner.length > 0) api.run(inner);
  };
}

/** env: assignments and `-u` are harmless, `-C DIR` changes directory, `-S` splits a string the check cannot see. */
export const envCommand: Extractor = (args, outer) => {
  const parsed = parseKnown(args, { short: 'a:iu:C:S:0v', long: ['argv0=', 'ignore-environment', 'null', 'unset=', 'chdir=', 'split-string=', 'block-signal?', 'default-signal?', 'ignore-signal?', 'list-signal-handling', 'debug'], stopAtOperand: true }, outer);
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
  const parsed = parseOptions(args, { short: 'AbEeg:HhiKkLlnPp:r:SsT:t:U:u:VvC:D:R:B', long: ['askpass', 'background', 'bell', 'preserve-env?', 'edit', 'group=', 'set-home', 'help', 'host=', 'login', 'remove-timestamp', 'reset-timestamp', 'list', 'non-interactive', 'preserve-groups', 'prompt=', 'role=', 'stdin', 'shell', 'type=', 'command-timeout=', 'other-user=', 'user=', 'validate', 'close-from=', 'chdir=', 'chroot='], stopAtOperand: true });
  outer.unresolved('sudo', 'sudo runs the command as another user, outside the checked permissions');
  let api = outer;
  for (const dir of optionValues(parsed, 'D', 'chdir', 'R', 'chroot')) api = api.chdir(dir);
  if (parsed.rest < args.length) api.run(args.slice(parsed.rest));
};

/** xargs: the inner command is checked, but the operands it gets come from input the check cannot see. */
export const xargsCommand: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: '0a:d:E:e::I:i::L:l::n:oP:prs:tx', long: ['null', 'arg-file=', 'delimiter=', 'eof?', 'replace?', 'max-lines?', 'max-args=', 'open-tty', 'max-procs=', 'interactive', 'no-run-if-empty', 'max-chars=', 'verbose', 'exit', 'show-limits', 'process-slot-var='], stopAtOperand: true }, api);
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
export const RISKY_VARIABLES = /^(PATH|HOME|CDPATH|IFS|ENV|BASH_ENV|BASH_\w+|SHELLOPTS|BASHOPTS|GLOBIGNORE|FIGNORE|HISTFILE|HISTCONTROL|HISTIGNORE|HOSTFILE|INPUTRC|PS[0-4]|PROMPT_COMMAND|PROMPT_DIRTRIM|MAIL|MAILPATH|MAILCHECK|OLDPWD|PWD|TIMEFORMAT|EXECIGNORE|FUNCNEST|SHELL|ZDOTDIR|XDG_\w+|PAGER|MANPAGER|GIT_\w+|EDITOR|VISUAL|BROWSER|TERMINFO\w*|LESS\w*|NODE_\w+|NPM_\w+|npm_\w+|PYTHON\w*|PERL\w*|RUBY\w*|GEM_\w+|JAVA_\w+|_JAVA_OPTIONS|CLASSPATH|LD_\w+|DYLD_\w+|TMPDIR|TAR_OPTIONS|GREP_OPTIONS|RIPGREP_CONFIG_PATH|SSH_\w+|GNUPGHOME|CURL_HOME|WGETRC|AWKPATH|AWKLIBPATH|POSIXLY_CORRECT|SIMPLE_BACKUP_SUFFIX|VERSION_CONTROL|\w*PATH|\w*_OPTIONS|\w*_OPTS|\w*_CONFIG\w*|\w*_HOME|\w*RC)$/;

/** jobs: lists jobs; `jobs -x COMMAND ARGS` runs COMMAND (job specs replaced by pids), which is checked as a command. */
export const jobsCommand: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: 'lnprsx', stopAtOperand: true }, api);
  if (hasOption(parsed, 'x') && parsed.rest < args.length) api.run(args.slice(parsed.rest));
};

/** Wrappers that run their operands as a command, keyed by name. */
export const WRAPPERS: Readonly<Record<string, Extractor>> = {
  env: envCommand,
  jobs: jobsCommand,
  sudo: sudoCommand,
  doas: sudoCommand,
  xargs: xargsCommand,
  timeout: wrapper({ short: 'fk:s:pv', long: ['foreground', 'kill-after=', 'signal=', 'preserve-status', 'verbose'] }, 1),
  nice: wrapper({ short: 'n:', digits: true, long: ['adjustment='] }),
  nohup: wrapper({}),
  stdbuf: wrapper({ short: 'i:o:e:', long: ['input=', 'output=', 'error='] }),
  ionice: wrapper({ short: 'c:n:t', long: ['class=', 'classdata=', 'ignore'] }),
  setsid: wrapper({ short: 'cfw', long: ['ctty', 'fork', 'wait'] }),
  chrt: wrapper({ short: 'bdefiormRT:P:D:v', long: ['batch', 'deadline', 'ext', 'fifo', 'idle', 'other', 'rr', 'reset-on-fork', 'sched-runtime=', 'sched-period=', 'sched-deadline=', 'max', 'verbose'] }, 1),
  time: wrapper({ short: 'f:o:apqv', long: ['format=', 'output=', 'append', 'portability', 'quiet', 'verbose'] }, 0, ['o', 'output']),
};
