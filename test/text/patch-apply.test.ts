import { describe, expect, it } from 'vitest';
import { ToolwardenError } from '../../src/errors.js';
import { planPatch, type PatchPlanStep } from '../../src/text/patch-apply.js';
import { parsePatch } from '../../src/text/patch-parse.js';
import { catchToolwardenError } from './catch-error.js';

type Files = Record<string, string>;

const plan = (patch: string, files: Files): PatchPlanStep[] => planPatch(parsePatch(patch), (path) => files[path]);
const envelope = (...body: string[]): string => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');
const unified = (path: string, ...body: string[]): string => [`--- a/${path}`, `+++ b/${path}`, ...body].join('\n');
const write = (path: string, content: string): PatchPlanStep => ({ kind: 'write', path, content });

describe('planPatch: successful plans', () => {
  it.each([
    { name: 'one hunk', files: { f: 'a\nb\nc\n' }, patch: envelope('*** Update File: f', ' a', '-b', '+B', ' c'), steps: [write('f', 'a\nB\nc\n')] },
    { name: 'trailing whitespace in the file is tolerated', files: { f: 'a  \nb\t\nc\n' }, patch: envelope('*** Update File: f', ' a', '-b', '+B'), steps: [write('f', 'a  \nB\nc\n')] },
    {
      name: 'several hunks in order',
      files: { f: '1\n2\n3\n4\n5\n6\n7\n8\n' },
      patch: envelope('*** Update File: f', '@@', ' 1', '-2', '+two', '@@', ' 6', '-7', '+seven', '+7.5'),
      steps: [write('f', '1\ntwo\n3\n4\n5\n6\nseven\n7.5\n8\n')],
    },
    {
      name: 'unified line numbers off by a few lines still apply',
      files: { f: 'x\nx\nx\nhead\nold\ntail\n' },
      patch: unified('f', '@@ -1,3 +1,3 @@', ' head', '-old', '+new', ' tail'),
      steps: [write('f', 'x\nx\nx\nhead\nnew\ntail\n')],
    },
    {
      name: 'unified line number picks the nearest of repeated blocks',
      files: { f: 'k\nv\nsep\nk\nv\nsep\nk\nv\n' },
      patch: unified('f', '@@ -4,2 +4,2 @@', ' k', '-v', '+V'),
      steps: [write('f', 'k\nv\nsep\nk\nV\nsep\nk\nv\n')],
    },
    {
      name: 'an @@ anchor picks the block after it',
      files: { f: 'def a():\n  return 1\ndef b():\n  return 1\n' },
      patch: envelope('*** Update File: f', '@@ def b():', '-  return 1', '+  return 2'),
      steps: [write('f', 'def a():\n  return 1\ndef b():\n  return 2\n')],
    },
    {
      name: 'End of File picks the last occurrence',
      files: { f: 'end\nmiddle\nend\n' },
      patch: envelope('*** Update File: f', '@@', ' end', '+after', '*** End of File'),
      steps: [write('f', 'end\nmiddle\nend\nafter\n')],
    },
    {
      name: 'CRLF file keeps CRLF on changed lines',
      files: { f: 'a\r\nb\r\nc\r\n' },
      patch: envelope('*** Update File: f', ' a', '-b', '+B1', '+B2'),
      steps: [write('f', 'a\r\nB1\r\nB2\r\nc\r\n')],
    },
    {
      name: 'mixed endings: untouched lines keep theirs',
      files: { f: 'a\r\nb\nc\r\nd\r\n' },
      patch: envelope('*** Update File: f', '-d', '+D'),
      steps: [write('f', 'a\r\nb\nc\r\nD\r\n')],
    },
    {
      name: 'a file without a final newline keeps that',
      files: { f: 'a\nb' },
      patch: envelope('*** Update File: f', ' a', '-b', '+B', '+C'),
      steps: [write('f', 'a\nB\nC')],
    },
    {
      name: 'a no-newline marker on the new side removes the final newline',
      files: { f: 'a\nb\n' },
      patch: unified('f', '@@ -2 +2 @@', '-b', '+b', '\\ No newline at end of file'),
      steps: [write('f', 'a\nb')],
    },
    {
      name: 'a no-newline marker on the old side only adds the final newline',
      files: { f: 'a\nb' },
      patch: unified('f', '@@ -2 +2 @@', '-b', '\\ No newline at end of file', '+b'),
      steps: [write('f', 'a\nb\n')],
    },
    { name: 'unified insertion at the top', files: { f: 'b\n' }, patch: unified('f', '@@ -0,0 +1 @@', '+a'), steps: [write('f', 'a\nb\n')] },
    { name: 'insertion without context appends', files: { f: 'a\n' }, patch: envelope('*** Update File: f', '+b'), steps: [write('f', 'a\nb\n')] },
    { name: 'insertion into an empty file', files: { f: '' }, patch: envelope('*** Update File: f', '+first'), steps: [write('f', 'first\n')] },
    { name: 'removing every line', files: { f: 'a\nb\n' }, patch: envelope('*** Update File: f', '-a', '-b'), steps: [write('f', '')] },
    {
      name: 'add, delete and move in one patch',
      files: { gone: 'x\n', from: 'm\n' },
      patch: envelope('*** Add File: new', '+n', '*** Delete File: gone', '*** Update File: from', '*** Move to: to', '-m', '+M'),
      steps: [write('new', 'n\n'), { kind: 'delete', path: 'gone' }, write('to', 'M\n'), { kind: 'delete', path: 'from' }],
    },
    { name: 'pure git rename', files: { o: 'same\n' }, patch: 'diff --git a/o b/n\nrename from o\nrename to n\n', steps: [write('n', 'same\n'), { kind: 'delete', path: 'o' }] },
    {
      name: 'two updates of one file apply in sequence',
      files: { f: 'a\nb\n' },
      patch: envelope('*** Update File: f', '-a', '+A', '*** Update File: f', '-A', '+AA'),
      steps: [write('f', 'AA\nb\n')],
    },
    { name: 'delete then add replaces a file', files: { f: 'old\n' }, patch: envelope('*** Delete File: f', '*** Add File: f', '+new'), steps: [write('f', 'new\n')] },
    { name: 'add then delete leaves nothing to do', files: {}, patch: envelope('*** Add File: t', '+x', '*** Delete File: t'), steps: [] },
    { name: 'move onto a file deleted earlier', files: { a: '1\n', b: '2\n' }, patch: envelope('*** Delete File: b', '*** Update File: a', '*** Move to: b'), steps: [write('b', '1\n'), { kind: 'delete', path: 'a' }] },
  ])('$name', ({ files, patch, steps }) => {
    expect(plan(patch, files)).toEqual(steps);
  });
});

describe('planPatch: refusals plan nothing', () => {
  it.each([
    {
      name: 'a context line that does not match',
      files: { 'src/f.ts': 'one\ntwo\nthree\n' },
      patch: envelope('*** Update File: src/f.ts', ' one', ' TWO', '-three'),
      code: 'EDIT_MISMATCH',
      says: ['hunk 1 of 1 for src/f.ts', 'hunk line 2 expects "TWO"', 'line 2 is "two"', 'No file was changed'],
    },
    { name: 'a first line absent from the file', files: { f: 'a\n' }, patch: envelope('*** Update File: f', '-zzz'), code: 'EDIT_MISMATCH', says: ['first line "zzz" was not found in the file'] },
    {
      name: 'the second hunk failing',
      files: { f: 'a\nb\nc\n' },
      patch: unified('f', '@@ -1 +1 @@', '-a', '+A', '@@ -3 +3 @@', '-nope', '+N'),
      code: 'EDIT_MISMATCH',
      says: ["hunk 2 of 2 for f (patch line 6 '@@ -3 +3 @@')"],
    },
    { name: 'an ambiguous hunk without line numbers', files: { f: 'x\ny\nx\n' }, patch: envelope('*** Update File: f', '-x', '+z'), code: 'EDIT_MISMATCH', says: ['matches 2 places', 'lines 1, 3', 'ambiguous'] },
    { name: 'a line number equally near two matches', files: { f: 'x\nm\nx\n' }, patch: unified('f', '@@ -2 +2 @@', '-x', '+z'), code: 'EDIT_MISMATCH', says: ['equally near lines 1 and 3'] },
    { name: 'End of File when the match is elsewhere', files: { f: 'a\nb\n' }, patch: envelope('*** Update File: f', '-a', '+A', '*** End of File'), code: 'EDIT_MISMATCH', says: ['must end at the end of the file'] },
    { name: 'an anchor that is missing', files: { f: 'a\n' }, patch: envelope('*** Update File: f', '@@ def nope():', '-a'), code: 'EDIT_MISMATCH', says: ['\'@@ "def nope():"\' was not found'] },
    { name: 'hunks out of order', files: { f: 'a\nb\n' }, patch: envelope('*** Update File: f', '@@', '-b', '+B', '@@', '-a', '+A'), code: 'EDIT_MISMATCH', says: ['hunk 2 of 2', 'after line 2'] },
    { name: 'adding an existing file', files: { f: 'x' }, patch: envelope('*** Add File: f', '+y'), code: 'CONFLICT', says: ['cannot add f', 'already exists'] },
    { name: 'updating a missing file', files: {}, patch: envelope('*** Update File: m', '-a'), code: 'NOT_FOUND', says: ['cannot update m'] },
    { name: 'deleting a missing file', files: {}, patch: envelope('*** Delete File: m'), code: 'NOT_FOUND', says: ['cannot delete m'] },
    { name: 'updating a file deleted earlier', files: { f: 'a\n' }, patch: envelope('*** Delete File: f', '*** Update File: f', '-a'), code: 'NOT_FOUND', says: ['earlier op'] },
    { name: 'moving onto an existing file', files: { a: '1\n', b: '2\n' }, patch: envelope('*** Update File: a', '*** Move to: b'), code: 'CONFLICT', says: ['cannot move a to b'] },
  ])('$name', ({ files, patch, code, says }) => {
    const error = catchToolwardenError(() => plan(patch, files));
    expect(error.code).toBe(code);
    for (const text of says) expect(error.message).toContain(text);
  });

  it('one bad hunk among good files plans nothing and lists every failure', () => {
    const files: Files = { good1: 'a\n', good2: 'b\n', bad: 'c\n', present: 'p\n' };
    const patch = envelope(
      '*** Update File: good1', '-a', '+A',
      '*** Update File: bad', '-not c', '+C',
      '*** Add File: created', '+new',
      '*** Add File: present', '+dup',
      '*** Update File: good2', '-b', '+B',
    );
    const error = catchToolwardenError(() => plan(patch, files));
    expect(error.code).toBe('EDIT_MISMATCH');
    expect(error.message).toContain('2 operations failed, so no file was changed');
    expect(error.message).toContain('for bad');
    expect(error.message).toContain('CONFLICT: apply_patch: cannot add present');
    expect(error.details?.['failures']).toHaveLength(2);
  });

  it('collects a refusal thrown by readFile (a path the guard rejects) with the others', () => {
    const readFile = (path: string): string | undefined => {
      if (path === '../outside') throw new ToolwardenError('OUTSIDE_WORKSPACE', `${path} resolves outside the workspace`);
      return path === 'ok' ? 'x\n' : undefined;
    };
    const error = catchToolwardenError(() => planPatch(parsePatch(envelope('*** Update File: ok', '-x', '+y', '*** Delete File: ../outside')), readFile));
    expect(error.code).toBe('OUTSIDE_WORKSPACE');
    expect(error.message).toContain('No file was changed');
  });

  it('lets non-toolwarden errors from readFile through unchanged', () => {
    const boom = new RangeError('boom');
    expect(() => planPatch(parsePatch(envelope('*** Delete File: a')), () => { throw boom; })).toThrow(boom);
  });
});
