import { hasGlob } from '../patterns.js';
import { dynamicWord, type Word } from '../words.js';
import { syntheticWord, type Extractor } from './api.js';

const TAKES_VALUE = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-regextype', '-type', '-xtype',
  '-maxdepth', '-mindepth', '-perm', '-user', '-group', '-uid', '-gid', '-size', '-mtime', '-atime', '-ctime', '-mmin',
  '-amin', '-cmin', '-used', '-links', '-inum', '-lname', '-ilname', '-context', '-printf', '-fstype', '-D', '-O',
]);
const READS_VALUE = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from']);
const WRITES_VALUE = new Set(['-fprint', '-fprint0', '-fls']);
const RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * find: starting points are read (`.` by default); `-delete` removes under them; `-exec` and friends run their
 * command with `{}` standing for a path under a starting point; `-fprint`, `-fprintf`, `-fls` write a file.
 */
export const findFiles: Extractor = (args, api) => {
  let i = 0;
  let follow = false;
  while (i < args.length && /^-([HLP]|D\S*|O\d*)$/.test(args[i]?.value ?? '')) {
    if (args[i]?.value === '-L') follow = true;
    if (args[i]?.value === '-D') i++;
    i++;
  }
  const starts: Word[] = [];
  while (i < args.length) {
    const text = args[i]?.value;
    if (text !== null && text !== undefined && (text.startsWith('-') || text === '(' || text === '!' || text === ')')) break;
    starts.push(args[i] as Word);
    i++;
  }
  if (starts.length === 0) starts.push(syntheticWord('.'));
  // A command run on what find finds gets every path under a start, through whatever links are there; -xtype and
  // a %Y format stat each link's target without -L.
  const expression = args.slice(i);
  const walks = follow || expression.some((w, j) => w.value === '-follow' || w.value === '-xtype' || RUNS.has(w.value ?? '') || statsTargets(expression, j));
  for (const start of starts) (walks ? api.walk(start) : api.read(start));
  while (i < args.length) {
    const word = args[i] as Word;
    const text = word.value ?? '';
    if (text === '-delete') {
      for (const start of starts) api.remove(start, true);
    } else if (RUNS.has(text)) {
      const end = args.findIndex((w, j) => j > i && (w.value === ';' || w.value === '+'));
      const inner = args.slice(i + 1, end === -1 ? args.length : end);
      for (const start of starts) api.run(inner.map((w) => substitutePlaceholder(w, start)));
      i = end === -1 ? args.length : end;
    } else if (WRITES_VALUE.has(text) || text === '-fprintf') {
      const target = args[++i];
      if (target) api.write(target);
      if (text === '-fprintf') i++;
    } else if (READS_VALUE.has(text) || /^-newer[amcBt]{2}$/.test(text)) {
      const target = args[++i];
      if (target && !/^-newer.t$/.test(text)) api.read(target);
    } else if (word.value === null) {
      api.unresolved(word, 'a find expression word is only known at run time');
    } else if (TAKES_VALUE.has(text)) {
      i++;
    }
    i++;
  }
};

// Whether the word at `j` is a -printf or -fprintf whose format prints a link target's type (%Y), or is unknown.
function statsTargets(expression: readonly Word[], j: number): boolean {
  const action = expression[j]?.value;
  const format = action === '-printf' ? expression[j + 1] : action === '-fprintf' ? expression[j + 2] : undefined;
  return format !== undefined && (format.value === null || /%Y/.test(format.value));
}

// `{}` stands for every path found under the starting point; the starting point itself is the closest static stand-in.
function substitutePlaceholder(word: Word, start: Word): Word {
  if (word.value === null || !word.value.includes('{}')) return word;
  if (start.value === null) return dynamicWord(word.source, start.reason);
  const pattern = word.pattern.replace(/\\\{\\\}|\{\}/g, () => start.pattern);
  return { ...word, value: word.value.replace(/\{\}/g, () => start.value as string), pattern, glob: hasGlob(pattern) };
}
