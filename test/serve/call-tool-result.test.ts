import { describe, expect, it } from 'vitest';
import { toCallToolResult } from '../../runtime/serve/session-mcp-server.js';

const structured = { path: 'a.txt', size: 3 };
const json = JSON.stringify(structured);

// Whether serve adds the structured content as its own JSON text block: only when no text block already holds that
// JSON. The cheap pre-checks in front of JSON.parse must not change any of these answers.
const rows: { name: string; text: string; extraBlock: boolean }[] = [
  { name: 'the exact JSON text', text: json, extraBlock: false },
  { name: 'the same JSON pretty-printed', text: JSON.stringify(structured, null, 2), extraBlock: false },
  { name: 'the same JSON after leading whitespace', text: `\n  ${json}`, extraBlock: false },
  { name: 'a file text that is not JSON', text: 'hello world\n', extraBlock: true },
  { name: 'a text opening like an object but not JSON', text: '{ not json', extraBlock: true },
  { name: 'other JSON object', text: JSON.stringify({ path: 'b.txt', size: 3 }), extraBlock: true },
  { name: 'a JSON array', text: JSON.stringify([structured]), extraBlock: true },
  { name: 'an empty text', text: '', extraBlock: true },
];

describe('toCallToolResult: the structured content JSON block', () => {
  it.each(rows)('$name -> extra block: $extraBlock', ({ text, extraBlock }) => {
    const converted = toCallToolResult({ content: [{ type: 'text', text }], structuredContent: structured });
    const expected = extraBlock ? [{ type: 'text', text }, { type: 'text', text: json }] : [{ type: 'text', text }];
    expect(converted.content).toEqual(expected);
    expect(converted.structuredContent).toEqual(structured);
  });

  // A host that reads only the content gets every structured fact once: the text blocks, then the JSON of the rest.
  const shownRows: { name: string; structured: Record<string, unknown>; texts: string[]; jsonBlock: Record<string, unknown> | undefined }[] = [
    { name: 'a string field equal to the text block is left out', structured: { path: 'a.txt', text: '     1\thi\n' }, texts: ['     1\thi\n'], jsonBlock: { path: 'a.txt' } },
    { name: 'a string field equal to a later text block is left out', structured: { n: 1, out: 'two' }, texts: ['one', 'two'], jsonBlock: { n: 1 } },
    { name: 'a string field one character off stays', structured: { path: 'a.txt', text: 'hi\n' }, texts: ['hi'], jsonBlock: { path: 'a.txt', text: 'hi\n' } },
    { name: 'a string field the text only contains stays', structured: { stdout: 'hi\n' }, texts: ['hi\n[exit code 0]'], jsonBlock: { stdout: 'hi\n' } },
    { name: 'an empty string field stays', structured: { stderr: '' }, texts: [''], jsonBlock: { stderr: '' } },
    { name: 'a non-string field equal to the text as JSON stays', structured: { count: 3 }, texts: ['3'], jsonBlock: { count: 3 } },
    { name: 'no block when every field is shown', structured: { text: 'all of it' }, texts: ['all of it'], jsonBlock: undefined },
  ];

  it.each(shownRows)('$name', ({ structured: given, texts, jsonBlock }) => {
    const converted = toCallToolResult({ content: texts.map((text) => ({ type: 'text' as const, text })), structuredContent: given });
    const expected = [...texts.map((text) => ({ type: 'text', text })), ...(jsonBlock === undefined ? [] : [{ type: 'text', text: JSON.stringify(jsonBlock) }])];
    expect(converted.content).toEqual(expected);
    expect(converted.structuredContent).toEqual(given);
  });

  it('adds a failure code to the structured content and its JSON block', () => {
    const converted = toCallToolResult({ content: [{ type: 'text', text: 'denied' }], structuredContent: structured, isError: true, code: 'NOT_READABLE' });
    const withCode = { ...structured, code: 'NOT_READABLE' };
    expect(converted.structuredContent).toEqual(withCode);
    expect(converted.content).toEqual([{ type: 'text', text: 'denied' }, { type: 'text', text: JSON.stringify(withCode) }]);
  });
});
