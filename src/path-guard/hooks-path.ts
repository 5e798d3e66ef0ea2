import type { PlatformPath } from 'node:path';
import type { BlockedEntry } from './blocklist.js';
import { isInside, splitPath } from './segments.js';

/** The hook names git runs (githooks(5)): blocked by name when `core.hooksPath` is the workspace root itself. */
const GIT_HOOK_NAMES = [
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg',
  'commit-msg', 'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update',
  'proc-receive', 'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout', 'pre-auto-gc',
  'post-rewrite', 'sendemail-validate', 'fsmonitor-watchman', 'p4-changelist', 'p4-prepare-changelist',
  'p4-post-changelist', 'p4-pre-submit', 'post-index-change',
];

const WHY = 'the repository\'s core.hooksPath: git runs the hooks there as code';

/**
 * The last `core.hooksPath` a git config file sets, or `undefined`. Follows git's syntax for what matters here:
 * section names and keys are case-insensitive, `[core]` only (a subsection such as `[core "x"]` is another
 * section), values may be quoted with `\"`, `\\`, `\t`, `\n` escapes, `#` and `;` start a comment outside quotes,
 * a trailing backslash continues the line. Includes (`include.path`) are not followed.
 */
export function parseHooksPath(configText: string): string | undefined {
  return parseCoreValue(configText, 'hookspath');
}

/** The last value a git config file gives `core.<key>` (`key` lower-case), read as {@link parseHooksPath} reads it. */
export function parseCoreValue(configText: string, key: string): string | undefined {
  let section = '';
  let found: string | undefined;
  for (const raw of logicalLines(configText)) {
    const line = raw.replace(/^[ \t]+|[ \t]+$/g, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    let rest = line;
    if (rest.startsWith('[')) {
      const close = rest.indexOf(']');
      if (close < 0) continue;
      section = rest.slice(1, close).trim().toLowerCase();
      rest = rest.slice(close + 1).replace(/^[ \t]+/, '');
      if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
    }
    if (section !== 'core') continue;
    const match = /^([A-Za-z][A-Za-z0-9-]*)[ \t]*(?:=(.*))?$/s.exec(rest);
    if (match === null || match[1]!.toLowerCase() !== key) continue;
    found = match[2] === undefined ? undefined : unquote(match[2]);
  }
  return found === '' ? undefined : found;
}

// Physical lines joined where git continues them: a backslash ending a line outside a comment, itself not escaped.
// A comment never continues (git reads it to the end of the line), and `\\` at the end is an escaped backslash.
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let pending = '';
  let quoted = false;
  for (const physical of text.split('\n')) {
    const line = physical.endsWith('\r') ? physical.slice(0, -1) : physical;
    let escaped = false;
    let comment = false;
    for (const c of line) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') quoted = !quoted;
      else if (!quoted && (c === '#' || c === ';')) {
        comment = true;
        break;
      }
    }
    if (!comment && escaped) {
      pending += line.slice(0, -1);
      continue;
    }
    lines.push(pending + line);
    pending = '';
    quoted = false;
  }
  if (pending !== '') lines.push(pending);
  return lines;
}

// A value as git reads it: quotes removed, escapes decoded, a comment cut, and spaces and tabs outside quotes kept
// only between other characters (leading and trailing ones dropped; other Unicode spaces are characters).
function unquote(value: string): string {
  let out = '';
  let spaces = '';
  let quoted = false;
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i]!;
    if (c === '\0') break;
    if (!quoted && (c === ' ' || c === '\t')) {
      if (out !== '') spaces += c;
      continue;
    }
    if (!quoted && (c === '#' || c === ';')) break;
    out += spaces;
    spaces = '';
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < value.length) {
      const next = value[(i += 1)]!;
      out += next === 't' ? '\t' : next === 'n' ? '\n' : next === 'b' ? '\b' : next;
    } else out += c;
  }
  return out;
}

/**
 * The blocklist entries for a repository's configured hooks directory: `hooksPath` as git reads it (relative to the
 * top of the working tree `repoRoot`; `~/` is the user's home), matched at any depth like `.git/hooks`. A directory
 * inside the workspace is blocked by its segments below the workspace root; one outside by its whole path (it
 * matters when writes outside are allowed); the workspace root itself by git's hook names.
 * @example configuredHooksEntries('.githooks', '/ws', '/ws', '/home/u', path.posix) // [{ segments: ['.githooks'], ... }]
 */
export function configuredHooksEntries(hooksPath: string, repoRoot: string, workspaceRoot: string, home: string, flavour: PlatformPath): BlockedEntry[] {
  const expanded = hooksPath === '~' ? home : hooksPath.startsWith('~/') ? flavour.join(home, hooksPath.slice(2)) : hooksPath;
  const absolute = flavour.resolve(repoRoot, expanded);
  const inside = isInside(absolute, workspaceRoot, flavour);
  const segments = inside ? splitPath(flavour.relative(workspaceRoot, absolute) || '.', flavour).segments : splitPath(absolute, flavour).segments;
  if (segments.length > 0) return [{ segments, depth: 'any', why: WHY }];
  if (!inside) return [];
  return GIT_HOOK_NAMES.map((name) => ({ segments: [name], depth: 'any', why: WHY }));
}
