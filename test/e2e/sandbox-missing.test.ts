import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// Without bwrap: detection reads PATH once per runtime, so a child node process runs the built runtime (dist/)
// with a PATH holding only a shell and a few tools. Build first (npx tsc -p tsconfig.json).
const DIST = new URL('../../dist/runtime/index.js', import.meta.url);

let tree: TempTree;
let report: {
  required: { code?: string; message?: string; opened?: boolean };
  requiredNoBash: { code?: string; message?: string; opened?: boolean };
  first: { text: string; warning?: string };
  second: { text: string; warning?: string };
  secondSession: { text: string };
  audit: { tool: string; args: unknown; result?: string }[];
};

const SCRIPT = `
const { createRuntime } = await import(process.argv[2]);
const workspaceRoot = process.argv[3];
const audit = [];
const rt = await createRuntime({ idleWorkers: 0, audit: (e) => audit.push({ tool: e.tool, args: e.args, result: e.result }) });
const out = { required: {}, requiredNoBash: {}, audit };
try {
  await rt.openSession({ workspaceRoot, tools: ['bash'], sandbox: 'required' });
  out.required.opened = true;
} catch (e) {
  out.required = { code: e.code, message: e.message };
}
try {
  const s = await rt.openSession({ workspaceRoot, tools: ['read_file'], sandbox: 'required' });
  out.requiredNoBash = { opened: true };
  await s.close();
} catch (e) {
  out.requiredNoBash = { code: e.code, message: e.message };
}
const s = await rt.openSession({ workspaceRoot, tools: ['bash'], sandbox: 'auto' });
const pick = (r) => ({ text: r.content.map((c) => c.text).join('\\n'), warning: r.structuredContent?.sandboxWarning });
out.first = pick(await s.call('bash', { command: 'echo one' }));
out.second = pick(await s.call('bash', { command: 'echo two' }));
const t = await rt.openSession({ workspaceRoot, tools: ['bash'], sandbox: 'auto' });
out.secondSession = pick(await t.call('bash', { command: 'echo three' }));
await rt.close();
process.stdout.write(JSON.stringify(out));
`;

beforeAll(() => {
  tree = makeTempTree('tw-nobwrap', { 'ws/a.txt': 'a\n' });
  fs.mkdirSync(tree.at('bin'));
  for (const tool of ['bash', 'sh', 'env', 'cat']) fs.symlinkSync(execFileSync('which', [tool], { encoding: 'utf8' }).trim(), tree.at(`bin/${tool}`));
  fs.writeFileSync(tree.at('run.mjs'), SCRIPT);
  const stdout = execFileSync(process.execPath, [tree.at('run.mjs'), pathToFileURL(DIST.pathname).href, tree.at('ws')], {
    encoding: 'utf8',
    env: { PATH: tree.at('bin'), HOME: tree.root },
    timeout: 30_000,
  });
  report = JSON.parse(stdout) as typeof report;
}, 40_000);
afterAll(() => tree.cleanup());

describe("sandbox 'required' without bwrap", () => {
  it('fails closed at openSession with SANDBOX_UNAVAILABLE and says how to install bwrap', () => {
    expect(report.required.opened).toBeUndefined();
    expect(report.required.code).toBe('SANDBOX_UNAVAILABLE');
    expect(report.required.message).toMatch(/not found on PATH/);
    expect(report.required.message).toMatch(/apt-get install bubblewrap/);
  });

  // Failing at open rather than at the first command: the host learns before any work starts, and host tools
  // can run commands through ctx.exec even in a session without bash.
  it('fails at openSession even for a session without bash', () => {
    expect(report.requiredNoBash).toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
  });
});

describe("sandbox 'auto' without bwrap", () => {
  it('warns in the first bash result only, as text and as a field', () => {
    expect(report.first.text).toMatch(/^\[toolwarden: OS sandbox unavailable/);
    expect(report.first.text).toContain('one');
    expect(report.first.warning).toMatch(/static command checks only/);
    expect(report.second.text).not.toContain('sandbox unavailable');
    expect(report.second.warning).toBeUndefined();
  });

  it('writes the warning to the audit log once per session', () => {
    const warnings = report.audit.filter((e) => (e.args as { event?: string } | undefined)?.event === 'sandbox');
    // One per session (two sessions ran bash), not one per call.
    expect(warnings).toHaveLength(2);
    expect(warnings[0]?.result).toMatch(/^OS sandbox unavailable \(bwrap was not found on PATH\)/);
    expect(report.secondSession.text).toMatch(/^\[toolwarden: OS sandbox unavailable/);
  });
});
