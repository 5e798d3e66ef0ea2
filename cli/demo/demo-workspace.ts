import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The demo's temporary workspace and the directory outside it that a symlink points into. */
export interface DemoWorkspace {
  readonly root: string;
  readonly outside: string;
  /** Whether `link-to-outside` could be created (symlinks may need privileges on Windows). */
  readonly hasOutsideLink: boolean;
  cleanup(): void;
}

/** Creates a small project: source files, a .git/hooks dir, and a symlink to a file outside the workspace. */
export function createDemoWorkspace(): DemoWorkspace {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'toolwarden-demo-')));
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'toolwarden-outside-')));
  const files: Record<string, string> = {
    'README.md': '# demo project\n',
    'src/greet.ts': 'export function greet(name: string): string {\n  return `hello, ${name}`;\n}\n',
    'src/main.ts': "import { greet } from '../../src/cli/demo/greet.js';\nconsole.log(greet('world'));\n",
    '.git/hooks/.keep': '',
  };
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), content);
  }
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'a secret outside the workspace\n');
  let hasOutsideLink = true;
  try {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-to-outside'));
  } catch {
    hasOutsideLink = false;
  }
  return {
    root,
    outside,
    hasOutsideLink,
    cleanup: () => {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    },
  };
}
