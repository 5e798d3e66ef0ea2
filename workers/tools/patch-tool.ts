import type { ChangeStep } from '../../src/protocol.js';
import { okResult, type ToolResult } from '../../src/tool-result.js';
import type { BuiltinArgs } from '../../src/tools/builtin-schemas.js';
import { parsePatch } from '../../src/text/patch-parse.js';
import { planPatch } from '../../src/text/patch-apply.js';
import { unwrap } from '../../src/protocol/broker-reply.js';
import type { FileToolContext } from '../../src/tools/file-tools.js';

/**
 * apply_patch: parse, read every file it touches, verify every hunk, then hand the whole change to the broker,
 * which checks every path for writing before it changes anything.
 */
export async function applyPatchTool(args: BuiltinArgs<'apply_patch'>, ctx: FileToolContext): Promise<ToolResult> {
  const ops = parsePatch(args.patch);
  const contents = new Map<string, string | undefined>();
  for (const op of ops) {
    for (const path of op.kind === 'update' && op.moveTo ? [op.path, op.moveTo] : [op.path]) {
      if (contents.has(path)) continue;
      const file = await unwrap(ctx.broker.readFile(path));
      contents.set(path, file?.text);
    }
  }
  const steps: ChangeStep[] = planPatch(ops, (path) => contents.get(path));
  const applied = await unwrap(ctx.broker.applyChanges(steps));
  const lines = [...applied.written.map((p) => `M ${p}`), ...applied.deleted.map((p) => `D ${p}`)];
  return okResult(`Applied patch:\n${lines.join('\n')}`, { ...applied });
}
