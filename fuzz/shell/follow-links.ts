import type { CommandGen } from './commands.js';
import type { Gen } from './gen.js';

// Directories and files whose entries or targets lead out (and some that do not), for the options that follow links.
const FOLLOW_DIRS = ['', '.', 'self', 'src', 'sub', 'src/..', 'self/..', 'src-link', 'link-out-dir', 'rel-out', '*', 'link-*', 's*'];
const FOLLOW_FILES = ['link-out-file', 'a.txt', 'src-link/x.ts', 'link-out-dir/secret.txt', 'link-*', '*'];

/**
 * One command the checker knows, with an option that follows links (threat family 25) as the tool spells it (short,
 * clustered, long, a GNU prefix), among options that do not, over a directory or file that may hold links out.
 */
const FOLLOWS: readonly (readonly [string, readonly string[], readonly string[], (g: Gen) => string])[] = [
  ['ls', ['-L', '--dereference', '--derefe', '-H', '--dereference-command-line', '--dereference-command-line-symlink-to-dir'], ['-l', '-la', '-R', '-d', '-1', '-i', '-s', '-t', '-F', '--color=never'], (g) => g.pick(FOLLOW_DIRS)],
  ['stat', ['-L', '--dereference', '--deref'], ['-c %s', '-t', '--format=%n', '-c %U'], (g) => g.pick([...FOLLOW_FILES, 'link-out-dir', '.'])],
  ['file', ['-L', '--dereference'], ['-b', '-i'], (g) => g.pick(FOLLOW_FILES)],
  ['du', ['-L', '--dereference', '-D', '-H', '--dereference-args'], ['-s', '-a', '-h', '--max-depth=1', '-c'], (g) => g.pick(FOLLOW_DIRS)],
  ['find', ['-L', '-H'], ['-P'], (g) => `${g.pick(FOLLOW_DIRS)} ${g.pick(['', '-name "*.txt"', '-type f', '-maxdepth 1', '-ls', '-follow', '-xtype f', "-printf '%Y %p\n'", "-printf '%p\n'"])}`],
  ['cp', ['-L', '-H', '--dereference', '--deref'], ['-r', '-a', '-R', '-p', '-v'], (g) => `${g.pick([...FOLLOW_DIRS, ...FOLLOW_FILES].filter((p) => p !== ''))} copy`],
  ['tar', ['-h', '--dereference', '--deref'], ['-v'], (g) => `-cf o.tar ${g.pick(FOLLOW_DIRS.filter((p) => p !== ''))}`],
  ['chown', ['-RL', '-R -L', '-RH', '-R --dereference -L'], ['-v', '-h'], (g) => `0:0 ${g.pick(FOLLOW_DIRS.filter((p) => p !== ''))}`],
  ['chgrp', ['-RL', '-RH'], ['-v'], (g) => `0 ${g.pick(FOLLOW_DIRS.filter((p) => p !== ''))}`],
  ['readlink', ['-f', '-e', '-m', '--canonicalize', '--canonicalize-e'], ['-n', '-v'], (g) => g.pick(FOLLOW_FILES)],
  ['realpath', [''], ['-e', '-s', '-q'], (g) => g.pick(FOLLOW_FILES)],
  ['grep', ['-R', '--dereference-recursive', '-rR', '--dereference'], ['-n', '-l', '-c', '-i'], (g) => `${g.pick(['TWCANARY', 'alpha', 'x'])} ${g.pick(FOLLOW_DIRS)}`],
  ['diff', ['-r', '--recursive', ''], ['-q', '-u', '--no-dereference'], (g) => `${g.pick(FOLLOW_DIRS.filter((p) => p !== ''))} ${g.pick(['src', 'sub', 'self', 'link-out-dir'])}`],
];

/** Commands with an option that follows links, tagged `follow:CMD`; never harmless (the workspace holds links out). */
export const FOLLOW_LINKS: CommandGen = {
  name: 'follow-links',
  weight: 6,
  benign: false,
  build: (g) => {
    const [cmd, follows, others, operand] = g.pick(FOLLOWS);
    g.tag(`cmd:${cmd}`);
    const follow = g.pick(follows);
    g.hostile(`follow:${cmd}`);
    if (follow !== '') g.tag(`opt:${cmd}:${follow}`);
    const options = [follow, ...Array.from({ length: g.rng.int(0, 2) }, () => g.pick(others))];
    // getopt permutes: the option that follows may come before, between or after the others.
    if (g.chance(0.5)) options.reverse();
    return [cmd, ...options.filter((o) => o !== ''), operand(g)].filter((w) => w !== '').join(' ');
  },
};
