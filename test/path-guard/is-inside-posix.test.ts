import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside } from '../../src/path-guard/index.js';

// A reference written the slow way: normalize both, then compare whole segments.
function referenceInside(child: string, root: string): boolean {
  if (!child.startsWith('/') || !root.startsWith('/')) return false;
  const c = path.posix.normalize(child).split('/').filter(Boolean);
  const r = path.posix.normalize(root).split('/').filter(Boolean);
  return r.length <= c.length && r.every((s, i) => s === c[i]);
}

// Spellings that climb out, or look inside without being so, must be refused even though the fast path skips
// normalize for paths that need none; the near misses (dot-names, trailing slashes) must stay inside.
const rows: [child: string, root: string, inside: boolean][] = [
  ['/ws/../etc/passwd', '/ws', false],
  ['/ws/sub/../../etc', '/ws', false],
  ['/ws/..', '/ws', false],
  ['/ws/.', '/ws', true],
  ['/ws/./a', '/ws', true],
  ['/ws//a', '/ws', true],
  ['//ws/a', '/ws', true],
  ['/ws-evil/a', '/ws', false],
  ['/wsa', '/ws', false],
  ['/ws/', '/ws', true],
  ['/ws', '/ws/', true],
  ['/ws/.hidden', '/ws', true],
  ['/ws/..hidden', '/ws', true],
  ['/ws/...', '/ws', true],
  ['/ws/a/..', '/ws/a', false],
  ['/ws/a', '/ws/a/..', true],
  ['/etc', '/ws/..', true],
  ['/anything', '/', true],
  ['ws/a', '/ws', false],
  ['/ws/a', 'ws', false],
  ['/ws/a\u0000', '/ws', true],
];

describe('isInside (posix): the no-normalize fast path gives the same answers', () => {
  it.each(rows)('%s inside %s -> %s', (child, root, inside) => {
    expect(isInside(child, root, path.posix)).toBe(inside);
    expect(referenceInside(child, root)).toBe(inside);
  });

  it('agrees with the reference on generated spellings (bounded, seeded)', () => {
    const parts = ['', '.', '..', '...', 'ws', 'ws-evil', 'a', '.a', '..a', 'a.'];
    let seed = 14;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const spell = (): string => `/${Array.from({ length: 1 + next(5) }, () => parts[next(parts.length)]).join('/')}`;
    for (let i = 0; i < 5000; i++) {
      const child = spell();
      const root = spell();
      expect(isInside(child, root, path.posix), `${child} in ${root}`).toBe(referenceInside(child, root));
    }
  });
});
