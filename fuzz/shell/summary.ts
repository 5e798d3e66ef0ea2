import { describeEscape, type DiffReport } from './run.js';

/** The text summary of a report: counts, escapes, coverage per command, construct, option form and path shape, over-asking. */
export function summarize(r: DiffReport): string {
  const lines: string[] = [];
  lines.push(`differential shell check: seed ${r.seed}, ${r.generated} commands (${r.corpus} corpus + ${r.count} generated) in ${r.seconds}s`);
  lines.push(`verdicts: ${r.allowed} allowed, ${r.asked} asked, ${r.denied} denied; ${r.ran} allowed commands ran in the sandbox (${r.timedOut} timed out)`);
  lines.push(`escapes: ${r.escapes.length}`);
  for (const e of r.escapes) lines.push(`  [${e.origin}] ${describeEscape(e)}`);
  if (r.sandboxErrors.length) lines.push(`sandbox errors: ${r.sandboxErrors.length}`, ...r.sandboxErrors.slice(0, 5).map((s) => `  ${s}`));
  if (r.checkerErrors.length) lines.push(`checker errors: ${r.checkerErrors.length}`, ...r.checkerErrors.slice(0, 5).map((s) => `  ${s.command}: ${s.error}`));
  lines.push(`over-asking: ${r.overAsked} of ${r.harmless} harmless commands asked, ${r.overDenied} denied; top shapes:`);
  const shapes = Object.entries(r.overAskShapes).sort((a, b) => b[1].count - a[1].count).slice(0, 15);
  for (const [shape, s] of shapes) lines.push(`  ${s.count}x ${shape}\n      e.g. ${JSON.stringify(s.example)}: ${s.reason.slice(0, 160)}`);
  for (const [title, prefix] of [['commands', 'cmd:'], ['constructs', 'construct:'], ['option forms', 'optform:'], ['path shapes', 'path:'], ['embedded languages', 'lang:'], ['families', 'family:']] as const) {
    lines.push(`coverage, ${title} (generated / allowed / asked / denied):`);
    const rows = Object.entries(r.coverage).filter(([t]) => t.startsWith(prefix)).sort((a, b) => b[1].generated - a[1].generated);
    lines.push(rows.map(([t, c]) => `  ${t.slice(prefix.length)} ${c.generated}/${c.allowed}/${c.asked}/${c.denied}`).join('\n'));
  }
  const options = Object.entries(r.coverage).filter(([t]) => t.startsWith('opt:'));
  lines.push(`coverage, options: ${options.length} distinct options generated, ${options.filter(([, c]) => c.allowed > 0).length} of them in an allowed command`);
  return lines.join('\n');
}
