/** What a GNU sed script does besides editing the stream: files it reads and writes, whether it runs commands. */
export interface SedEffects {
  reads: string[];
  writes: string[];
  /** The `e` command or the `e` flag of `s`: the pattern space or an argument runs as a shell command. */
  runs: boolean;
}

// Files GNU sed opens itself for `w`, never on disk.
const SPECIAL_WRITES = new Set(['/dev/stdout', '/dev/stderr']);
const SPECIAL_READS = new Set(['/dev/stdin']);

/**
 * Parses a GNU sed script the way sed does (addresses with `/re/` or `\cREc` and their `I`/`M` flags, `!`, `{}`,
 * text commands, `s` and `y` with any delimiter and their flags) and lists the files it touches; returns a string
 * saying why when the script is not one it can read, so the command asks.
 */
export function parseSedScript(script: string): SedEffects | string {
  const fx: SedEffects = { reads: [], writes: [], runs: false };
  let i = 0;
  const peek = (): string => script[i] ?? '';
  const skipSpace = (): void => {
    while (i < script.length && /[ \t]/.test(peek())) i++;
  };
  const readRegex = (delim: string): string | null => {
    let out = '';
    while (i < script.length) {
      const c = script[i++] as string;
      if (c === '\\') {
        const n = script[i++];
        if (n === undefined) return null;
        out += n === delim ? n : `\\${n}`;
      } else if (c === delim) {
        return out;
      } else if (c === '\n' && delim !== '\n') {
        return null;
      } else {
        out += c;
      }
    }
    return null;
  };
  const readFilename = (): string => {
    skipSpace();
    const start = i;
    while (i < script.length && peek() !== '\n') i++;
    return script.slice(start, i);
  };
  const readAddress = (): boolean | null => {
    const c = peek();
    if (/[0-9]/.test(c)) {
      while (/[0-9~]/.test(peek())) i++;
      return true;
    }
    if (c === '$') {
      i++;
      return true;
    }
    if (c === '/' || c === '\\') {
      i++;
      const delim = c === '/' ? '/' : script[i++];
      if (delim === undefined || delim === '\n' || delim === '\\') return null;
      if (readRegex(delim) === null) return null;
      while (peek() === 'I' || peek() === 'M') i++;
      return true;
    }
    return false;
  };
  while (i < script.length) {
    while (i < script.length && /[\s;]/.test(peek())) i++;
    if (i >= script.length) break;
    if (peek() === '#') {
      while (i < script.length && peek() !== '\n') i++;
      continue;
    }
    const first = readAddress();
    if (first === null) return 'an address of the sed script does not parse';
    if (first) {
      skipSpace();
      if (peek() === ',') {
        i++;
        skipSpace();
        if (peek() === '+' || peek() === '~') {
          i++;
          while (/[0-9]/.test(peek())) i++;
        } else if (readAddress() !== true) return 'the second address of the sed script does not parse';
      }
    }
    skipSpace();
    while (peek() === '!') {
      i++;
      skipSpace();
    }
    const cmd = script[i++];
    if (cmd === undefined) return 'the sed script ends after an address';
    switch (cmd) {
      case '{':
      case '}':
      case '=': case 'd': case 'D': case 'g': case 'G': case 'h': case 'H': case 'n': case 'N': case 'p': case 'P':
      case 'x': case 'z': case 'F':
        break;
      case 'l': case 'L': case 'q': case 'Q':
        skipSpace();
        while (/[0-9]/.test(peek())) i++;
        break;
      case ':': case 'b': case 't': case 'T': case 'v':
        while (i < script.length && peek() !== '\n' && peek() !== ';') i++;
        break;
      case 'a': case 'i': case 'c':
        // Text to the end of the line, with backslash-newline continuing it.
        while (i < script.length) {
          if (peek() === '\\') i += 2;
          else if (peek() === '\n') break;
          else i++;
        }
        break;
      case 'r': case 'R': {
        const file = readFilename();
        if (!SPECIAL_READS.has(file)) fx.reads.push(file);
        break;
      }
      case 'w': case 'W': {
        const file = readFilename();
        if (!SPECIAL_WRITES.has(file)) fx.writes.push(file);
        break;
      }
      case 'e':
        fx.runs = true;
        while (i < script.length && peek() !== '\n') i++;
        break;
      case 's': {
        const delim = script[i++];
        if (delim === undefined || delim === '\n' || delim === '\\') return 'the s command of the sed script does not parse';
        if (readRegex(delim) === null || readRegex(delim) === null) return 'the s command of the sed script does not parse';
        while (i < script.length && /[gpiImMe0-9w]/.test(peek())) {
          const flag = script[i++];
          if (flag === 'e') fx.runs = true;
          if (flag === 'w') {
            const file = readFilename();
            if (!SPECIAL_WRITES.has(file)) fx.writes.push(file);
          }
        }
        break;
      }
      case 'y': {
        const delim = script[i++];
        if (delim === undefined || delim === '\n' || delim === '\\') return 'the y command of the sed script does not parse';
        if (readRegex(delim) === null || readRegex(delim) === null) return 'the y command of the sed script does not parse';
        break;
      }
      default:
        return `the sed command ${JSON.stringify(cmd)} is not one the checker knows`;
    }
  }
  return fx;
}
