import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/tools/builtin-schemas.js';
import { describeBuiltinTool } from '../../src/tools/tool-info.js';
import { builtinAnnotations } from '../../src/tools/tool-presentation.js';

describe('built-in tool presentation', () => {
  it('bash is open-world only when the capability lets it reach some host', () => {
    expect(builtinAnnotations('bash', false).openWorldHint).toBe(false);
    expect(builtinAnnotations('bash', []).openWorldHint).toBe(false);
    expect(builtinAnnotations('bash', ['api.example.com']).openWorldHint).toBe(true);
    expect(builtinAnnotations('web_fetch', false)).toMatchObject({ readOnlyHint: false, openWorldHint: true });
  });

  it('never calls a tool that writes read-only, and gives every built-in tool a title and an open output schema', () => {
    for (const name of BUILTIN_TOOL_NAMES) {
      const annotations = builtinAnnotations(name, false);
      if (['write_file', 'edit_file', 'apply_patch', 'bash'].includes(name)) expect(annotations.readOnlyHint, name).toBe(false);
      const info = describeBuiltinTool(name);
      expect(info.title, name).toBe(annotations.title);
      expect(info.outputSchema, name).toMatchObject({ type: 'object' });
      expect(info.outputSchema, name).not.toHaveProperty('required');
    }
  });
});
