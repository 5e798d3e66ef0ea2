import { createRuntime } from '../../runtime/index.js';
import { countLines, runProgram } from '../child.js';
import { globInProcess, grepInProcess } from '../js-walk.js';
import { assertOk, figureOf, sampleInTurns } from '../measure.js';
import { compareRow, infoRow } from '../targets.js';
import { generateTree, MARKDOWN_GLOB, NEEDLE_PATTERN } from '../tree.js';
import type { Scenario, ScenarioContext, ScenarioOutcome } from './scenario.js';

/** Scenario 4: grep and glob over a generated tree, against an in-process JS walk and against grep -r / find. */
export const walks: Scenario = {
  id: 4,
  title: 'Walks: grep and glob over a generated tree vs an in-process JS walk+regex and grep -r',
  run: runWalks,
};

const MAX_RESULTS = 5000;

async function runWalks(context: ScenarioContext): Promise<ScenarioOutcome> {
  context.progress(`generating (or reusing) a tree of ${context.sizes.treeFiles} files`);
  const tree = generateTree(context.sizes.treeFiles);
  const runtime = await createRuntime({ idleWorkers: 1, sandbox: 'off' });
  try {
    const session = await runtime.openSession({ workspaceRoot: tree.root, tools: ['grep', 'glob'], limits: { maxResults: MAX_RESULTS } });
    const counts = { tw: 0, js: 0, grepR: 0, twGlob: 0, jsGlob: 0, find: 0 };
    const plan = context.sizes.walks;
    const samples = await sampleInTurns(
      {
        twGrep: async () => {
          const result = await session.call('grep', { pattern: NEEDLE_PATTERN, maxResults: MAX_RESULTS });
          assertOk(result);
          counts.tw = (result.structuredContent as { matches: unknown[] }).matches.length;
        },
        jsGrep: async () => {
          counts.js = grepInProcess(tree.root, NEEDLE_PATTERN, MAX_RESULTS).length;
        },
        grepR: async () => {
          counts.grepR = countLines(await runProgram('grep', ['-rnE', NEEDLE_PATTERN, tree.root]));
        },
        twGlob: async () => {
          const result = await session.call('glob', { pattern: MARKDOWN_GLOB });
          assertOk(result);
          counts.twGlob = (result.structuredContent as { paths: unknown[] }).paths.length;
        },
        jsGlob: async () => {
          counts.jsGlob = globInProcess(tree.root, MARKDOWN_GLOB, MAX_RESULTS).length;
        },
        find: async () => {
          counts.find = countLines(await runProgram('find', [tree.root, '-type', 'f', '-name', '*.md']));
        },
      },
      plan,
      (block) => context.progress(`walk block ${block + 1}/${plan.blocks}`),
    );
    const twGrep = figureOf(`toolwarden grep /${NEEDLE_PATTERN}/`, 'ms', samples.twGrep);
    const twGlob = figureOf(`toolwarden glob ${MARKDOWN_GLOB}`, 'ms', samples.twGlob);
    const notes = [
      `tree: ${tree.files} files, ${(tree.bytes / 1e6).toFixed(1)} MB at ${tree.root}; ${plan.warmup} warmup + ${plan.blocks * plan.perBlock} timed walks per operation`,
      `results (must agree): grep ${counts.tw} toolwarden / ${counts.js} in-process / ${counts.grepR} grep -r (expected ${tree.needles}); glob ${counts.twGlob} toolwarden / ${counts.jsGlob} in-process / ${counts.find} find (expected ${tree.markdownFiles})`,
      'in-process baseline: synchronous readdir/readFile walk, one whole-file regex test to reject, then line by line; same cap and line text',
    ];
    if (context.quick) notes.unshift(`quick mode: ${tree.files}-file tree instead of 10,000`);
    return {
      rows: [
        compareRow('grep vs in-process JS walk+regex', twGrep, figureOf('in-process JS walk+regex', 'ms', samples.jsGrep), { kind: 'max', limit: 1 }),
        infoRow('grep vs grep -r (child process)', twGrep, figureOf('grep -rnE (child process)', 'ms', samples.grepR)),
        infoRow('glob vs in-process JS walk+picomatch', twGlob, figureOf('in-process JS walk+picomatch', 'ms', samples.jsGlob)),
        infoRow('glob vs find -name (child process)', twGlob, figureOf('find -type f -name (child process)', 'ms', samples.find)),
      ],
      notes,
    };
  } finally {
    await runtime.close();
  }
}
