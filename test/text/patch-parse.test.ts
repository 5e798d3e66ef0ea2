import { describe, expect, it } from 'vitest';
import { parsePatch, type PatchOp } from '../../src/text/patch-parse.js';
import { catchToolwardenError } from './catch-error.js';

const TAG = { context: ' ', remove: '-', add: '+' } as const;

// A compact view of parsed ops: hunks as their body lines plus the flags that matter.
function summarize(ops: PatchOp[]): unknown[] {
  return ops.map((op) => {
    if (op.kind !== 'update') return op;
    const hunks = op.hunks.map((hunk) => ({
      anchors: hunk.anchors,
      oldStart: hunk.oldStart,
      body: hunk.lines.map((line) => TAG[line.kind] + line.text),
      eof: hunk.atEof,
      noNewline: `${hunk.oldNoNewline ? 'old' : ''}${hunk.newNoNewline ? 'new' : ''}`,
    }));
    return op.moveTo === undefined ? { kind: 'update', path: op.path, hunks } : { kind: 'update', path: op.path, moveTo: op.moveTo, hunks };
  });
}

const hunk = (body: string[], extra: Partial<{ anchors: string[]; oldStart: number; eof: boolean; noNewline: string }> = {}): unknown => ({
  anchors: [],
  oldStart: undefined,
  eof: false,
  noNewline: '',
  ...extra,
  body,
});

const envelope = (...body: string[]): string => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

describe('parsePatch: *** Begin Patch format', () => {
  it.each([
    { name: 'add file', patch: envelope('*** Add File: src/new.ts', '+one', '+', '+three'), ops: [{ kind: 'add', path: 'src/new.ts', content: 'one\n\nthree\n' }] },
    { name: 'add empty file', patch: envelope('*** Add File: empty.txt'), ops: [{ kind: 'add', path: 'empty.txt', content: '' }] },
    { name: 'delete file', patch: envelope('*** Delete File: old.txt'), ops: [{ kind: 'delete', path: 'old.txt' }] },
    {
      name: 'update without @@',
      patch: envelope('*** Update File: a.txt', ' keep', '-old', '+new'),
      ops: [{ kind: 'update', path: 'a.txt', hunks: [hunk([' keep', '-old', '+new'])] }],
    },
    {
      name: 'update with anchors and several hunks',
      patch: envelope('*** Update File: a.py', '@@ class A:', '@@     def f(self):', '-        return 1', '+        return 2', '@@ def g():', ' x', '', '-y'),
      ops: [{ kind: 'update', path: 'a.py', hunks: [hunk(['-        return 1', '+        return 2'], { anchors: ['class A:', 'def f(self):'] }), hunk([' x', ' ', '-y'], { anchors: ['def g():'] })] }],
    },
    {
      name: 'update with move',
      patch: envelope('*** Update File: old/name.ts', '*** Move to: new/name.ts', '@@', '-a', '+b'),
      ops: [{ kind: 'update', path: 'old/name.ts', moveTo: 'new/name.ts', hunks: [hunk(['-a', '+b'])] }],
    },
    { name: 'pure move', patch: envelope('*** Update File: a', '*** Move to: b'), ops: [{ kind: 'update', path: 'a', moveTo: 'b', hunks: [] }] },
    {
      name: 'End of File marker',
      patch: envelope('*** Update File: a.txt', '@@', ' last', '+appended', '*** End of File'),
      ops: [{ kind: 'update', path: 'a.txt', hunks: [hunk([' last', '+appended'], { eof: true })] }],
    },
    {
      name: 'several files, blank lines between them, CRLF patch text',
      patch: envelope('*** Add File: n.txt', '+n', '', '*** Delete File: d.txt', '', '*** Update File: u.txt', '-u', '+U', '').replace(/\n/g, '\r\n'),
      ops: [{ kind: 'add', path: 'n.txt', content: 'n\n' }, { kind: 'delete', path: 'd.txt' }, { kind: 'update', path: 'u.txt', hunks: [hunk(['-u', '+U'])] }],
    },
    { name: 'inside a Markdown fence', patch: `\`\`\`\n${envelope('*** Delete File: a')}\`\`\`\n`, ops: [{ kind: 'delete', path: 'a' }] },
    {
      name: 'marker lines with stray whitespace',
      patch: '\n  *** Begin Patch  \n*** Delete File:   spaced name.txt  \n *** End Patch\n\n',
      ops: [{ kind: 'delete', path: 'spaced name.txt' }],
    },
  ])('$name', ({ patch, ops }) => {
    expect(summarize(parsePatch(patch))).toEqual(ops);
  });

  it.each([
    { name: 'missing End Patch', patch: '*** Begin Patch\n*** Delete File: a\n', line: 3, says: "'*** End Patch'" },
    { name: 'unknown operation', patch: envelope('*** Rename File: a'), line: 2, says: "'*** Add File: <path>'" },
    { name: 'added line without +', patch: envelope('*** Add File: a', '+ok', 'oops'), line: 4, says: "must start with '+'" },
    { name: 'update without hunks', patch: envelope('*** Update File: a'), line: 3, says: 'expected a hunk' },
    { name: '@@ without lines', patch: envelope('*** Update File: a', '@@ foo'), line: 4, says: 'expected hunk lines' },
    { name: 'empty path', patch: envelope('*** Delete File:   '), line: 2, says: 'expected a path' },
    { name: 'text after End Patch', patch: `${envelope('*** Delete File: a')}trailing words\n`, line: 4, says: 'after' },
    { name: 'no operations', patch: envelope(), line: 2, says: 'no file operations' },
  ])('rejects $name with the line number', ({ patch, line, says }) => {
    const error = catchToolwardenError(() => parsePatch(patch));
    expect(error.code).toBe('INVALID_ARGS');
    expect(error.message).toContain(`patch line ${line}:`);
    expect(error.message).toContain(says);
  });
});

describe('parsePatch: unified diffs', () => {
  it.each([
    {
      name: 'git diff update',
      patch: ['diff --git a/src/x.ts b/src/x.ts', 'index 1234567..89abcde 100644', '--- a/src/x.ts', '+++ b/src/x.ts', '@@ -1,3 +1,3 @@ function f() {', ' a', '-b', '+B', ' c'].join('\n'),
      ops: [{ kind: 'update', path: 'src/x.ts', hunks: [hunk([' a', '-b', '+B', ' c'], { oldStart: 1 })] }],
    },
    {
      name: 'diff -u with timestamps, no a/ b/ prefixes',
      patch: ['--- lib/x.c\t2024-01-01 10:00:00.000000000 +0000', '+++ lib/x.c\t2024-01-02 10:00:00.000000000 +0000', '@@ -5 +5 @@', '-x', '+y'].join('\n'),
      ops: [{ kind: 'update', path: 'lib/x.c', hunks: [hunk(['-x', '+y'], { oldStart: 5 })] }],
    },
    {
      name: 'add from /dev/null',
      patch: ['diff --git a/n.txt b/n.txt', 'new file mode 100644', '--- /dev/null', '+++ b/n.txt', '@@ -0,0 +1,2 @@', '+one', '+two'].join('\n'),
      ops: [{ kind: 'add', path: 'n.txt', content: 'one\ntwo\n' }],
    },
    {
      name: 'add without a final newline',
      patch: ['--- /dev/null', '+++ b/n.txt', '@@ -0,0 +1 @@', '+only', '\\ No newline at end of file'].join('\n'),
      ops: [{ kind: 'add', path: 'n.txt', content: 'only' }],
    },
    {
      name: 'delete to /dev/null',
      patch: ['--- a/d.txt', '+++ /dev/null', '@@ -1,2 +0,0 @@', '-one', '-two'].join('\n'),
      ops: [{ kind: 'delete', path: 'd.txt' }],
    },
    { name: 'git empty new file', patch: ['diff --git a/e b/e', 'new file mode 100644', 'index 0000000..e69de29'].join('\n'), ops: [{ kind: 'add', path: 'e', content: '' }] },
    { name: 'git delete without hunks', patch: ['diff --git a/e b/e', 'deleted file mode 100644', 'index e69de29..0000000'].join('\n'), ops: [{ kind: 'delete', path: 'e' }] },
    {
      name: 'pure rename',
      patch: ['diff --git a/old.ts b/new.ts', 'similarity index 100%', 'rename from old.ts', 'rename to new.ts'].join('\n'),
      ops: [{ kind: 'update', path: 'old.ts', moveTo: 'new.ts', hunks: [] }],
    },
    {
      name: 'rename with a change',
      patch: ['diff --git a/o.ts b/n.ts', 'similarity index 90%', 'rename from o.ts', 'rename to n.ts', '--- a/o.ts', '+++ b/n.ts', '@@ -2,1 +2,1 @@', '-x', '+y'].join('\n'),
      ops: [{ kind: 'update', path: 'o.ts', moveTo: 'n.ts', hunks: [hunk(['-x', '+y'], { oldStart: 2 })] }],
    },
    {
      name: 'several files and hunks, with a commit message and signature around them',
      patch: [
        'From abc Mon Sep 17 00:00:00 2001', 'Subject: [PATCH] change', '', '---', ' a | 2 +-', '',
        'diff --git a/a b/a', '--- a/a', '+++ b/a', '@@ -1,2 +1,2 @@', '-1', '+one', ' 2', '@@ -10,2 +10,2 @@', ' 10', '-11', '+eleven',
        'diff --git a/b b/b', '--- a/b', '+++ b/b', '@@ -3 +3,2 @@', ' three', '+four', '-- ', '2.43.0', '',
      ].join('\n'),
      ops: [
        { kind: 'update', path: 'a', hunks: [hunk(['-1', '+one', ' 2'], { oldStart: 1 }), hunk([' 10', '-11', '+eleven'], { oldStart: 10 })] },
        { kind: 'update', path: 'b', hunks: [hunk([' three', '+four'], { oldStart: 3 })] },
      ],
    },
    {
      name: 'no-newline markers on both sides',
      patch: ['--- a/f', '+++ b/f', '@@ -1 +1 @@', '-old', '\\ No newline at end of file', '+new', '\\ No newline at end of file'].join('\n'),
      ops: [{ kind: 'update', path: 'f', hunks: [hunk(['-old', '+new'], { oldStart: 1, eof: true, noNewline: 'oldnew' })] }],
    },
    {
      name: 'adding the final newline',
      patch: ['--- a/f', '+++ b/f', '@@ -1 +1 @@', '-last', '\\ No newline at end of file', '+last'].join('\n'),
      ops: [{ kind: 'update', path: 'f', hunks: [hunk(['-last', '+last'], { oldStart: 1, eof: true, noNewline: 'old' })] }],
    },
    {
      name: 'wrong counts fall back to reading the body',
      patch: ['--- a/f', '+++ b/f', '@@ -1,1 +1,1 @@', ' a', '-b', '+c', ' d', '--- a/g', '+++ b/g', '@@ -1,9 +1,9 @@', '-x', '+y'].join('\n'),
      ops: [
        { kind: 'update', path: 'f', hunks: [hunk([' a', '-b', '+c', ' d'], { oldStart: 1 })] },
        { kind: 'update', path: 'g', hunks: [hunk(['-x', '+y'], { oldStart: 1 })] },
      ],
    },
    {
      name: 'bare @@ header and empty context lines',
      patch: ['--- a/f', '+++ b/f', '@@', ' a', '', '-b', '+c', '', ''].join('\n'),
      ops: [{ kind: 'update', path: 'f', hunks: [hunk([' a', ' ', '-b', '+c'])] }],
    },
    {
      name: 'inside a Markdown diff fence',
      patch: ['```diff', '--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', '-a', '+b', ' c', '```'].join('\n'),
      ops: [{ kind: 'update', path: 'f', hunks: [hunk(['-a', '+b', ' c'], { oldStart: 1 })] }],
    },
    {
      name: 'quoted git names',
      patch: ['diff --git "a/sp ace\\303\\251.txt" "b/sp ace\\303\\251.txt"', '--- "a/sp ace\\303\\251.txt"', '+++ "b/sp ace\\303\\251.txt"', '@@ -1 +1 @@', '-a', '+b'].join('\n'),
      ops: [{ kind: 'update', path: 'sp aceé.txt', hunks: [hunk(['-a', '+b'], { oldStart: 1 })] }],
    },
  ])('$name', ({ patch, ops }) => {
    expect(summarize(parsePatch(patch))).toEqual(ops);
  });

  it.each([
    { name: 'empty patch', patch: '  \n', line: undefined, says: 'patch is empty' },
    { name: 'no file header', patch: 'just some words\n', line: 1, says: "'--- a/<path>'" },
    { name: 'hunk before any header', patch: 'intro\n@@ -1 +1 @@\n-a\n+b\n', line: 2, says: 'before the hunk' },
    { name: 'binary patch', patch: 'diff --git a/x.png b/x.png\nindex 1..2 100644\nBinary files a/x.png and b/x.png differ\n', line: 3, says: 'binary' },
    { name: 'header without hunks', patch: '--- a/x\n+++ b/x\n', line: 1, says: 'no hunks' },
    { name: 'add with context lines', patch: '--- /dev/null\n+++ b/x\n@@ -0,0 +1,2 @@\n+a\n b\n', line: 3, says: 'only have added lines' },
  ])('rejects $name', ({ patch, line, says }) => {
    const error = catchToolwardenError(() => parsePatch(patch));
    expect(error.code).toBe('INVALID_ARGS');
    if (line !== undefined) expect(error.message).toContain(`patch line ${line}:`);
    expect(error.message).toContain(says);
  });
});
