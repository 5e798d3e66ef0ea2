import { describe, expect, it } from 'vitest';
import { extractSamples } from './doc-samples.js';

const fence = (lang: string, body: string, indent = ''): string => `${indent}\`\`\`${lang}\n${body.split('\n').map((l) => indent + l).join('\n')}\n${indent}\`\`\``;

describe('extractSamples', () => {
  it.each([
    ['a ts block runs', fence('ts', 'console.log(1); // → 1'), { mode: 'run', kind: 'code', expects: ['1'] }],
    ['a js block runs', fence('js', 'x()'), { mode: 'run', kind: 'code', expects: [] }],
    ['a shell block is documentation', fence('sh', 'npm test'), { mode: 'doc', kind: 'shell' }],
    ['a shell block marked run runs', `<!-- sample: run -->\n${fence('sh', 'npx toolwarden --version  # → 0.')}`, { mode: 'run', expects: ['0.'] }],
    ['a json block is documentation', fence('json', '{}'), { mode: 'doc', kind: 'other', expects: [] }],
    ['a file marker writes the block', `<!-- sample: file conf/tw.json -->\n\n${fence('json', '{}')}`, { mode: 'file', file: 'conf/tw.json' }],
    ['a skip marker needs a reason and keeps it', `<!-- sample: skip because needs a key -->\n${fence('ts', 'x')}`, { mode: 'skip', skipReason: 'needs a key' }],
    ['needs names commands', `<!-- sample: needs bwrap socat -->\n${fence('ts', 'x')}`, { mode: 'run', needs: ['bwrap', 'socat'] }],
    ['an indented fence in a list item loses its indent', `- item:\n\n${fence('ts', 'a();\n  b();', '  ')}`, { mode: 'run', code: 'a();\n  b();' }],
    ['a marker separated by prose does not apply', `<!-- sample: skip because x -->\nsome prose\n${fence('ts', 'x')}`, { mode: 'run' }],
  ])('%s', (_name, markdown, expected) => {
    const [sample] = extractSamples('page.md', markdown);
    expect(sample).toMatchObject(expected);
  });

  it.each([
    ['an unknown marker', `<!-- sample: maybe -->\n${fence('ts', 'x')}`, /unknown sample marker 'maybe'/],
    ['skip without a reason', `<!-- sample: skip -->\n${fence('ts', 'x')}`, /'skip' needs 'because <reason>'/],
    ['run on a ts block', `<!-- sample: run -->\n${fence('ts', 'x')}`, /'run' is for sh\/bash blocks/],
    ['skip on a shell block', `<!-- sample: skip because x -->\n${fence('sh', 'x')}`, /only ts\/js samples are skipped/],
    ['a file path that climbs', `<!-- sample: file ../x.json -->\n${fence('json', '{}')}`, /unknown sample marker/],
    ['two markers', `<!-- sample: run -->\n<!-- sample: file a.sh -->\n${fence('sh', 'x')}`, /one sample marker per block/],
    ['a fence that never closes', '```ts\nx\n', /page\.md:1: a fence that never closes/],
  ])('refuses %s, naming the line', (_name, markdown, message) => {
    expect(() => extractSamples('page.md', markdown)).toThrow(message);
  });

  it('gives each block its page and line', () => {
    const samples = extractSamples('docs/x.md', `# title\n\n${fence('ts', 'a')}\n\ntext\n\n${fence('sh', 'b')}`);
    expect(samples.map((s) => [s.page, s.line, s.lang])).toEqual([['docs/x.md', 3, 'ts'], ['docs/x.md', 9, 'sh']]);
  });
});
