import { createRuntime } from '../../runtime/runtime.js';
import { EXIT, type CliIo } from '../cli-io.js';
import { createDemoWorkspace } from '../demo/demo-workspace.js';
import { DEMO_PERMISSIONS, DEMO_TOOLS, demoSteps, scriptedApprover, type AnsweredApproval } from '../demo/demo-steps.js';
import { formatTable, terminalWidth, type DemoRow } from '../demo/format-table.js';
import { HELP_OPTION, parseCommandArgs } from '../parse-command-args.js';
import { USAGE } from '../usage.js';

const OPTIONS = { ...HELP_OPTION, json: { type: 'boolean' } } as const;

/**
 * `toolwarden demo`: one session on a temporary workspace with a scripted approver; allowed, approved and refused
 * calls side by side, each with its full reason, as a table wrapped to `width` or as JSON with `--json`.
 * @returns the exit code
 */
export async function runDemo(argv: readonly string[], io: CliIo, width = terminalWidth(process.stdout.columns)): Promise<number> {
  const flags = parseCommandArgs(argv, OPTIONS).values;
  if (flags.help) {
    io.stdout(USAGE.demo);
    return EXIT.ok;
  }
  const workspace = createDemoWorkspace();
  const approvals: AnsweredApproval[] = [];
  const rt = await createRuntime({ approve: scriptedApprover(approvals) });
  try {
    const session = await rt.openSession({ workspaceRoot: workspace.root, tools: [...DEMO_TOOLS], sandbox: 'auto', permissions: DEMO_PERMISSIONS });
    const rows: DemoRow[] = [];
    for (const step of demoSteps(workspace)) {
      const row = await step.run({ rt, session, workspace, approvals });
      const detail = row.detail.replaceAll(workspace.root, '<workspace>').replaceAll(workspace.outside, '<outside>');
      rows.push({ ...row, call: step.call, detail });
    }
    const count = (outcome: DemoRow['outcome']): number => rows.filter((row) => row.outcome === outcome).length;
    if (flags.json) {
      const summary = { allowed: count('allowed'), approved: count('approved'), refused: count('refused') };
      io.stdout(`${JSON.stringify({ workspace: workspace.root, outside: workspace.outside, tools: DEMO_TOOLS, permissions: DEMO_PERMISSIONS, rows, summary }, null, 2)}\n`);
      return EXIT.ok;
    }
    io.stdout(`toolwarden demo: <workspace> is ${workspace.root}, <outside> is ${workspace.outside}\n`);
    io.stdout(`session tools: ${DEMO_TOOLS.join(', ')} (sandbox: auto)\n`);
    io.stdout(`session rules: ${JSON.stringify(DEMO_PERMISSIONS)}; a scripted approver allows what they ask about and denies dangerous removals\n\n`);
    io.stdout(formatTable(rows, width));
    for (const note of new Set(rows.flatMap((row) => (row.note === undefined ? [] : [row.note])))) io.stdout(`\nnote: ${note}\n`);
    io.stdout(`\n${count('allowed')} allowed, ${count('approved')} approved, ${count('refused')} refused.\n`);
    return EXIT.ok;
  } finally {
    await rt.close();
    workspace.cleanup();
  }
}
