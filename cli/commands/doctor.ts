import { SELF_TEST_PROPERTIES, type SelfTestCheck } from '../../src/sandbox/self-test.js';
import { detectSandbox, type SandboxDetection } from '../../runtime/sandbox/detect-sandbox.js';
import { runSandboxSelfTest, runZygoteSelfTest } from '../../runtime/sandbox/run-self-test.js';
import { EXIT, type CliIo } from '../cli-io.js';
import { HELP_OPTION, parseCommandArgs } from '../parse-command-args.js';
import { USAGE } from '../usage.js';

const OPTIONS = { ...HELP_OPTION, json: { type: 'boolean' } } as const;

/** What `doctor` found: the detection and every self-test property. */
export interface DoctorReport {
  readonly ok: boolean;
  readonly sandbox: SandboxDetection;
  readonly checks: readonly SelfTestCheck[];
  /**
   * The same properties proved for a command started by a session's standing sandbox (the zygote). A failure here is
   * not fatal: the runtime then starts a bubblewrap per command, as with `sandboxZygote: false`.
   */
  readonly zygoteChecks: readonly SelfTestCheck[];
}

/**
 * `toolwarden doctor`: finds bwrap, starts one sandbox with a session's layout and proves each property from
 * inside it (the same self-test a runtime runs before its first sandboxed command).
 * @returns 0 when bwrap works and every property holds, 1 otherwise
 */
export async function runDoctor(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseCommandArgs(argv, OPTIONS).values;
  if (flags.help) {
    io.stdout(USAGE.doctor);
    return EXIT.ok;
  }
  const sandbox = await detectSandbox();
  const checks = sandbox.available ? await runSandboxSelfTest(sandbox) : [];
  const zygoteChecks = sandbox.available ? await runZygoteSelfTest(sandbox) : [];
  const report: DoctorReport = { ok: sandbox.available && checks.every((c) => c.passed), sandbox, checks, zygoteChecks };
  io.stdout(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.ok ? EXIT.ok : EXIT.failed;
}

function formatReport(report: DoctorReport): string {
  const { sandbox } = report;
  const lines = [
    sandbox.available ? `bubblewrap: ${sandbox.path}` : `bubblewrap: unavailable (${sandbox.reason ?? 'unknown reason'})`,
  ];
  if (sandbox.available) {
    lines.push(`user namespace: ${sandbox.userNamespace ? 'yes' : 'no (commands share the host user namespace)'}`);
    lines.push(`prlimit: ${sandbox.prlimit ?? 'not found (no per-command rlimits)'}`);
  }
  lines.push(...report.checks.map(formatCheck));
  if (report.zygoteChecks.length > 0) {
    const held = report.zygoteChecks.every((c) => c.passed);
    lines.push(`session sandbox (zygote): ${held ? 'used' : 'not used, each command gets a bubblewrap of its own'}`);
    lines.push(...report.zygoteChecks.map((check) => `  ${formatCheck(check)}`));
  }
  lines.push(report.ok ? 'the OS sandbox holds every property' : "the OS sandbox is not fully usable: sandbox 'required' refuses sessions, 'auto' warns");
  return `${lines.join('\n')}\n`;
}

function formatCheck(check: SelfTestCheck): string {
  return `${check.passed ? 'pass' : 'FAIL'}  ${check.property.padEnd(24)} ${SELF_TEST_PROPERTIES[check.property]} (${check.detail.replaceAll('\t', ' ')})`;
}
