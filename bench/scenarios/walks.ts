import { createRuntime } from '../../runtime/index.js';
import { countLines, runProgram } from '../child.js';
import { globInProcess, grepInProcess } from '../js-walk.js';
import { startLeanWalk } from '../lean/walk-design.js';
import { assertOk, latencyFigure, sampleInTurns } from '../measure.js';
import { compareRow, infoRow, leanOf } from '../targets.js';
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
  const leanWalk = await startLeanWalk();
  try {
    const session = await runtime.openSession({ workspaceRoot: tree.root, tools: ['grep', 'glob'], limits: { maxResults: MAX_RESULTS } });
    const counts = { tw: 0, js: 0, lean: 0, grepR: 0, twGlob: 0, jsGlob: 0, find: 0 };
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
        leanGrep: async () => {
          counts.lean = (await leanWalk.grep(tree.root, NEEDLE_PATTERN, MAX_RESULTS)).length;
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
      { onRound: (round) => context.progress(`walk round ${round + 1}/${plan.rounds}`) },
    );
    const twGrep = latencyFigure(`toolwarden grep /${NEEDLE_PATTERN}/`, samples.twGrep);
    const twGlob = latencyFigure(`toolwarden glob ${MARKDOWN_GLOB}`, samples.twGlob);
    const jsGrep = latencyFigure('in-process JS walk+regex', samples.jsGrep);
    const grepGoal = { kind: 'max', limit: 1 } as const;
    const grepTarget = compareRow('grep vs in-process JS walk+regex', twGrep, jsGrep, grepGoal);
    const notes = [
      `tree: ${tree.files} files, ${(tree.bytes / 1e6).toFixed(1)} MB at ${tree.root}; ${plan.warmup} warmup + ${plan.rounds} rounds of ${plan.perRound} timed walks per operation, taking turns`,
      `results (must agree): grep ${counts.tw} toolwarden / ${counts.js} in-process / ${counts.lean} lean walk thread / ${counts.grepR} grep -r (expected ${tree.needles}); glob ${counts.twGlob} toolwarden / ${counts.jsGlob} in-process / ${counts.find} find (expected ${tree.markdownFiles})`,
      'in-process baseline: synchronous readdir/readFile walk, one whole-file regex test to reject, then line by line; same cap and line text',
      "lean design: the same walk in a thread of its own (toolwarden's walks run off the main thread), one round trip carrying the matches (bench/lean/walk-design.ts)",
    ];
    if (context.quick) notes.unshift(`quick mode: ${tree.files}-file tree instead of 10,000`);
    return {
      rows: [
        grepTarget,
        leanOf(grepTarget, compareRow('lean walk thread', latencyFigure('in-process walk in a thread of its own', samples.leanGrep), jsGrep, grepGoal)),
        infoRow('grep vs grep -r (child process)', twGrep, latencyFigure('grep -rnE (child process)', samples.grepR)),
        infoRow('glob vs in-process JS walk+picomatch', twGlob, latencyFigure('in-process JS walk+picomatch', samples.jsGlob)),
        infoRow('glob vs find -name (child process)', twGlob, latencyFigure('find -type f -name (child process)', samples.find)),
      ],
      notes,
    };
  } finally {
    await leanWalk.close();
    await runtime.close();
  }
}
