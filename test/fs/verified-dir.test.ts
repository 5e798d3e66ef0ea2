import { closeSync, mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolwardenError } from '../../src/errors.js';
import { openChildDirectory, openDirectory, isThroughDescriptor, type VerifiedDir } from '../../runtime/fs/index.js';
import { createTempTree, removeTempTree } from '../path-guard/temp-tree.js';

let base = '';
beforeEach(() => {
  base = createTempTree({ 'ws/d/f.txt': 'inside', 'ws/file': 'x', 'outside/f.txt': 'outside' });
});
afterEach(() => removeTempTree(base));

const at = (relative: string) => path.join(base, relative);
const codeOf = (call: () => unknown): string => {
  try {
    const value = call();
    (value as VerifiedDir | undefined)?.close?.();
    return 'ok';
  } catch (error) {
    if (error instanceof ToolwardenError) return error.code;
    throw error;
  }
};

describe('openDirectory', () => {
  it.each([
    ['a real directory', 'ws/d', 'ok'],
    ['a missing directory', 'ws/nope', 'NOT_FOUND'],
    ['a file', 'ws/file', 'CONFLICT'],
    ['under a file', 'ws/file/x', 'CONFLICT'],
  ])('%s', (_name, relative, expected) => {
    expect(codeOf(() => openDirectory(at(relative), 'exact'))).toBe(expected);
  });

  it.each([
    ['the directory itself swapped for a link', 'ws/d', 'ws/d'],
    ['a parent swapped for a link', 'ws', 'ws/d'],
  ])('refuses %s with BLOCKED_PATH', (_name, swapped, opened) => {
    mkdirSync(at('outside/d'));
    renameSync(at(swapped), at(`${swapped}-moved`));
    symlinkSync(at(swapped === 'ws' ? 'outside' : 'outside/d'), at(swapped));
    expect(codeOf(() => openDirectory(at(opened), 'exact'))).toBe('BLOCKED_PATH');
  });

  it('in allowed mode refuses a real path the check refuses', () => {
    expect(codeOf(() => openDirectory(at('ws/d'), 'allowed', () => false))).toBe('NOT_READABLE');
  });
});

describe.runIf(isThroughDescriptor())('entries through the descriptor', () => {
  it('keeps naming the verified directory after it is swapped for a link', () => {
    const dir = openDirectory(at('ws/d'), 'exact');
    try {
      renameSync(at('ws/d'), at('ws/d-moved'));
      symlinkSync(at('outside'), at('ws/d'));
      writeFileSync(dir.entry('new.txt'), 'x');
      expect(readdirSync(at('ws/d-moved')).sort()).toEqual(['f.txt', 'new.txt']);
      expect(readdirSync(at('outside'))).toEqual(['f.txt']);
    } finally {
      dir.close();
    }
  });

  it('opens a child without following a link swapped in', () => {
    const dir = openDirectory(at('ws'), 'exact');
    try {
      symlinkSync(at('outside'), at('ws/link'));
      expect(codeOf(() => openChildDirectory(dir, 'link'))).toBe('BLOCKED_PATH');
      const child = openChildDirectory(dir, 'd');
      expect(child.path).toBe(at('ws/d'));
      child.close();
    } finally {
      dir.close();
    }
  });

  it.each(['..', '.', '', 'a/b', 'x\0'])('refuses the entry name %j, which is not one segment', (name) => {
    const dir = openDirectory(at('ws/d'), 'exact');
    try {
      expect(codeOf(() => dir.entry(name))).toBe('INVALID_ARGS');
    } finally {
      dir.close();
    }
  });

  it('closes once, even when asked twice', () => {
    const dir = openDirectory(at('ws/d'), 'exact');
    dir.close();
    expect(() => dir.close()).not.toThrow();
    expect(() => closeSync(dir.fd as number)).toThrow();
  });
});
