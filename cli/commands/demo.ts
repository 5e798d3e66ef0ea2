import { parseArgs } from 'node:util';
import { createRuntime } from '../../runtime/runtime.js';
import { EXIT, type CliIo } from '../cli-io.js';
import { createDemoWorkspace } from '../demo/demo-workspace.js';
import { DEMO_TOOLS, demoSteps } from '../demo/demo-steps.js';
import { formatTable, type DemoRow } from '../demo/format-table.js';
import { HELP_OPTION, usageErrors } from '../parse-command-args.js';
import { USAGE } from '../usage.js';

/**
 * `toolwarden demo`: one session on a temporary workspace, allowed and refused calls side by side.
 * @returns the exit code
 */
export async function runDemo(argv: readonly string[], io: CliIo): Promise<number> {
  if (usageErrors('demo', () => parseArgs({ args: [...argv], options: HELP_OPTION, strict: true }).values).help) {
    io.stdout(USAGE.demo);
    return EXIT.ok;
  }
  const workspace = createDemoWorkspace();
  const rt = await createRuntime();
  try {
    const session = await rt.openSession({ workspaceRoot: workspace.root, tools: [...DEMO_TOOLS], sandbox: 'auto' });
    io.stdout(`toolwarden demo: <workspace> is ${workspace.root}, <outside> is ${workspace.outside}\n`);
    io.stdout(`session tools: ${DEMO_TOOLS.join(', ')} (sandbox: auto, no approver: 'ask' means deny)\n\n`);
    const rows: DemoRow[] = [];
    for (const step of demoSteps(workspace)) {
      const row = await step.run({ rt, session, workspace });
      const detail = row.detail.replaceAll(workspace.root, '<workspace>').replaceAll(workspace.outside, '<outside>');
      rows.push({ ...row, call: step.call, detail });
    }
    io.stdout(formatTable(rows));
    for (const note of new Set(rows.flatMap((row) => (row.note === undefined ? [] : [row.note])))) io.stdout(`\nnote: ${note}\n`);
    const refused = rows.filter((row) => row.outcome === 'refused').length;
    io.stdout(`\n${rows.length - refused} allowed, ${refused} refused.\n`);
    return EXIT.ok;
  } finally {
    await rt.close();
    workspace.cleanup();
  }
}
