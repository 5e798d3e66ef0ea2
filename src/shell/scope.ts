import type { CommandApi } from './commands/api.js';
import { resolveFrom, unionCwds, type Cwds, type Outcome } from './cwd.js';
import { foreignRepository } from './git-repo.js';
import { lookupPhysical } from './physical.js';
import type { Recorder } from './recorder.js';
import type { ShellContext, ShellParser, SyntaxNode } from './types.js';
import type { Word } from './words.js';

/** How a simple command is looked up: `command` and `builtin` skip shell functions. */
export interface RunOptions {
  functions: boolean;
}

/** Thrown when a command is too large or too deeply nested to analyse; it becomes a parse error (ask). */
export class TooComplexError extends Error {}

// Bounds on the work one analysis may do: nodes visited and nesting of eval / bash -c.
const MAX_STEPS = 200_000;
const MAX_NESTING = 8;

/** The state shared by one analysis: context, results, known functions, and the work budget. */
export class Scope {
  /** Functions defined so far, and whether calling one may change the working directory. */
  readonly functions = new Map<string, SyntaxNode[]>();
  /** Variables given a value other than a literal integer so far: naming them in arithmetic may run code. */
  readonly tainted = new Set<string>();
  /** Variables declared integer (`declare -i`): every later assignment to one is evaluated as arithmetic. */
  readonly integers = new Set<string>();
  /** Variables whose value is known here: a `for` loop's variable while its body is walked for one value. */
  readonly bound = new Map<string, string>();
  nesting = 0;
  private steps = 0;

  constructor(
    readonly ctx: ShellContext,
    readonly parser: ShellParser,
    readonly rec: Recorder,
    private readonly hooks: {
      runCommand(scope: Scope, words: Word[], cwds: Cwds, text: string, opts: RunOptions): Outcome;
      walkSource(scope: Scope, source: string, cwds: Cwds): Outcome;
      walkNode(scope: Scope, node: SyntaxNode, cwds: Cwds): Outcome;
    },
  ) {}

  /** Counts one step of work; throws {@link TooComplexError} past the budget. */
  tick(): void {
    if (++this.steps > MAX_STEPS) throw new TooComplexError('the command is too large to check');
  }

  /** Runs a simple command (already split into words) from the given directories. */
  run(words: Word[], cwds: Cwds, text = textOf(words), opts: RunOptions = { functions: true }): Outcome {
    return this.hooks.runCommand(this, words, cwds, text, opts);
  }

  /** Calls a shell function: its body is checked here, from the cwd of the call. */
  callFunction(bodies: readonly SyntaxNode[], cwds: Cwds): Outcome {
    return this.nested(() => {
      const outcomes = bodies.map((body) => this.hooks.walkNode(this, body, cwds));
      return { ok: unionCwds(...outcomes.map((o) => o.ok)), fail: unionCwds(...outcomes.map((o) => o.fail)) };
    });
  }

  /** Walks nested code (`eval`, `bash -c`, a function body at its call) within the nesting bound. */
  nested<T>(walk: () => T): T {
    if (this.nesting >= MAX_NESTING) throw new TooComplexError('eval / bash -c / function nesting is too deep to check');
    this.nesting++;
    try {
      return walk();
    } finally {
      this.nesting--;
    }
  }

  /** Parses and walks shell source found inside a command (`eval`, `bash -c`). */
  walkSource(source: string, cwds: Cwds): Outcome {
    return this.nested(() => this.hooks.walkSource(this, source, cwds));
  }

  /** The extractor api for one command running in `cwds`. */
  api(cwds: Cwds, text: string, name: string): CommandApi {
    const rec = this.rec;
    return {
      read: (word) => rec.access(word, 'read', cwds, text),
      write: (word, leaves = 'file') => rec.access(word, 'write', cwds, text, true, leaves === 'any' ? undefined : 'file'),
      walk: (word, mode = 'read', depth = Infinity) => rec.walk(word, mode, cwds, text, depth),
      remove: (word, recursive) => rec.removal(word, recursive, cwds, text),
      changeTree: (word) => rec.writeTree(word, cwds, text, 'change'),
      unresolved: (word, reason, kind) => rec.unresolvedWord(typeof word === 'string' ? word : word.source, text, reason, kind),
      unknown: () => rec.unknown(name),
      link: (dest, target, into) => rec.link(dest, target, into, cwds, text),
      transfer: (source, dest, how) => rec.transfer(source, dest, how, cwds, text),
      run: (words) => {
        this.run(words, cwds);
      },
      isDirectory: (word) =>
        word.value !== null &&
        cwds.every((cwd) => {
          if (cwd === null) return false;
          const found = lookupPhysical(this.ctx.fs, cwd, word.value as string);
          return 'path' in found && this.ctx.fs.kind(found.path) === 'dir';
        }),
      mayExist: (word) =>
        word.value === null ||
        cwds.some((cwd) => {
          if (cwd === null) return true;
          const found = lookupPhysical(this.ctx.fs, cwd, word.value as string);
          return !('path' in found) || this.ctx.fs.kind(found.path) !== null || this.rec.overlay.mayHaveChanged(found.path);
        }),
      foreignRepository: () => {
        for (const cwd of cwds) {
          const reason = cwd === null ? 'the working directory is unknown here' : foreignRepository(this.ctx.fs, cwd, this.ctx.workspaceRoot);
          if (reason !== null) return reason;
        }
        return null;
      },
      chdir: (dir) => {
        rec.access(dir, 'read', cwds, text);
        return this.api(changeDirectory(cwds, dir), text, name);
      },
    };
  }
}

/** The directories after changing into `dir` from each of `cwds`. */
export function changeDirectory(cwds: Cwds, dir: Word): Cwds {
  if (dir.value === null || dir.glob) return [null];
  const target = dir.value;
  return [...new Set(cwds.map((cwd) => (target.startsWith('/') ? resolveFrom('/', target) : cwd === null ? null : resolveFrom(cwd, target))))];
}

/** The text of a command made of words, each argument once (brace expansion repeats the source). */
export function textOf(words: readonly Word[]): string {
  return words.filter((w, i) => i === 0 || words[i - 1]?.source !== w.source).map((w) => w.source).join(' ');
}
