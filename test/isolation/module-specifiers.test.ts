import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moduleSpecifiers, specifierTarget } from '../../src/isolation/module-specifiers.js';

describe('moduleSpecifiers', () => {
  it.each([
    ['static imports and re-exports', "import a from './a.mjs';\nimport { b } from 'pkg/sub';\nexport * from '../c.mjs';\nexport { d } from '@s/p';", false, ['./a.mjs', 'pkg/sub', '../c.mjs', '@s/p']],
    ['a literal dynamic import', "const m = await import('./lazy.mjs');", false, ['./lazy.mjs']],
    ['an import built at run time is not seen', 'const m = await import(`./${name}.mjs`); await import(base + ".mjs");', false, []],
    ['comments and strings name nothing', "// import x from './comment.mjs'\nconst s = \"import y from './string.mjs'\";\nimport z from './real.mjs';", false, ['./real.mjs']],
    ['require in a module without import or export syntax', "const a = require('./a.cjs');\nconst fs = require(\"node:fs\");", false, ['./a.cjs', 'node:fs']],
    ['require in a .cjs file', "module.exports = require('./impl.cjs');", true, ['./impl.cjs']],
    ['require in an ES module is not followed', "import x from './x.mjs';\nconst y = require('./y.cjs');", false, ['./x.mjs']],
  ])('%s', (_name, source, commonJs, expected) => {
    expect(moduleSpecifiers(source, commonJs)).toEqual(expected);
  });
});

describe('specifierTarget', () => {
  it.each([
    ['./a.mjs', { kind: 'file', specifier: './a.mjs' }],
    ['../lib/b.js', { kind: 'file', specifier: '../lib/b.js' }],
    ['/abs/c.mjs', { kind: 'file', specifier: '/abs/c.mjs' }],
    ['file:///abs/d.mjs', { kind: 'file', specifier: 'file:///abs/d.mjs' }],
    ['zod', { kind: 'package', name: 'zod' }],
    ['zod/v4', { kind: 'package', name: 'zod' }],
    ['@scope/pkg/deep/file.js', { kind: 'package', name: '@scope/pkg' }],
    ['fs', { kind: 'none' }],
    ['node:fs', { kind: 'none' }],
    ['data:text/javascript,1', { kind: 'none' }],
    ['https://example.com/x.mjs', { kind: 'none' }],
    ['#internal', { kind: 'none' }],
    ['@scope', { kind: 'none' }],
    ['.', { kind: 'none' }],
    ['..', { kind: 'none' }],
  ])('%s', (specifier, expected) => {
    expect(specifierTarget(specifier)).toEqual(expected);
  });

  // A package name is looked up as node_modules/<name>: it must never climb out of that folder.
  it('never names a package that climbs out of node_modules', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '@', '/', '.', '..', '#', ':', '\\', 'x') }), (specifier) => {
        const target = specifierTarget(specifier);
        if (target.kind !== 'package') return true;
        return target.name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
      }),
      { numRuns: 5000, seed: 29 },
    );
  });
});
