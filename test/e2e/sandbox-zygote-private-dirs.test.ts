import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBwrap } from '../helpers/has-bwrap.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { DRIVER_USERS, giveToNobody, runSandboxed, type DriverResult, ZYGOTE_UNDER_TEST } from '../helpers/run-sandboxed.js';

// A session's zygote empties /tmp and HOME between commands so each command finds them as fresh as a bwrap of its
// own would. Commands run without capabilities, so permission bits bind them and the zygote alike: a directory a
// command makes unreadable or unwritable must not make its contents outlive the command. Each row plants with one
// command and looks with the next (run from files, so the static check is not what stops them).
const PLANTS = [
  { name: 'a directory with mode 000', plant: 'mkdir -p $D/p1/in; echo evil > $D/p1/in/f; chmod 000 $D/p1', left: 'p1/in/f' },
  { name: 'a nested directory with mode 000', plant: 'mkdir -p $D/p2/in; echo evil > $D/p2/in/f; chmod 000 $D/p2/in', left: 'p2/in/f' },
  { name: 'a read-only directory (0500)', plant: 'mkdir -p $D/p3; echo evil > $D/p3/f; chmod 500 $D/p3', left: 'p3/f' },
  { name: 'a read-only directory holding a read-only one', plant: 'mkdir -p $D/p4/a; echo evil > $D/p4/a/f; chmod 500 $D/p4/a $D/p4', left: 'p4/a/f' },
] as const;
const DIRS = ['/tmp', '$HOME'] as const;

const script = (body: (dir: string) => string): string => DIRS.map((dir) => `D=${dir}\n${body(dir)}\n`).join('');
const plantAll = script(() => PLANTS.map((row) => row.plant).join('\n'));
// Opens up whatever is left (the looker may chmod too) and lists each planted file it finds.
const lookAll = script((dir) => `chmod -R u+rwx $D/p1 $D/p2 $D/p3 $D/p4 2>/dev/null\n${PLANTS.map((row) => `[ -e $D/${row.left} ] && echo '${dir}:${row.left}'`).join('\n')}\ntrue`);

describe.skipIf(!hasBwrap).each(DRIVER_USERS)('the zygote empties /tmp and HOME between commands whatever their modes, as %s', (user) => {
  let ws: TempTree;
  let results: DriverResult[];

  beforeAll(async () => {
    ws = makeTempTree('tw-zygote-dirs', {
      'plant.sh': `${plantAll}echo planted\n`,
      'look.sh': lookAll,
      // Near miss: the workspace is mounted below /tmp; a locked directory there is the user's and stays as it is.
      'lock-ws.sh': 'mkdir -p locked; echo mine > locked/f; chmod 500 locked; echo locked\n',
    });
    if (user === 'nobody') giveToNobody(ws.root);
    results = await runSandboxed(user, ws.root, ['sh plant.sh', 'sh look.sh', 'sh lock-ws.sh', 'echo next'], { sandboxZygote: ZYGOTE_UNDER_TEST });
  }, 120_000);
  afterAll(() => {
    // The near miss left a read-only directory in the workspace: open it so cleanup can remove it.
    if (existsSync(ws.at('locked'))) execChmod(ws.at('locked'));
    ws.cleanup();
  });

  it('plants with the first command (the attack ran)', () => {
    expect(results[0]).toMatchObject({ exitCode: 0, stdout: 'planted\n' });
  });

  it.each(PLANTS.flatMap((row) => DIRS.map((dir) => ({ ...row, dir }))))('nothing of $name in $dir reaches the next command', ({ dir, left }) => {
    expect(results[1]).toMatchObject({ exitCode: 0 });
    expect(results[1]?.stdout.split('\n')).not.toContain(`${dir}:${left}`);
  });

  it('leaves a read-only directory in the workspace below /tmp as it is (near miss)', () => {
    expect(results[2]).toMatchObject({ exitCode: 0, stdout: 'locked\n' });
    expect(results[3]).toMatchObject({ exitCode: 0, stdout: 'next\n' });
    expect(readFileSync(ws.at('locked/f'), 'utf8')).toBe('mine\n');
  });
});

function execChmod(path: string): void {
  // chmod back as root or as the owner nobody: either may open its own directory.
  execFileSync('chmod', ['-R', 'u+rwx', path]);
}
