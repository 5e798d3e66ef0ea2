import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { buildCapability } from '../../runtime/session/session-options.js';
import { checkCommand } from '../../runtime/shell/command-check.js';
import type { ShellCheck } from '../../src/shell/index.js';
import type { FixtureLayout } from './fixture.js';

/** The checker as the runtime calls it for a bash call with the sandbox off, bound to the fixture's workspace. */
export type Checker = (command: string) => Promise<ShellCheck>;

/** Builds the session paths the runtime would (workspace, one read root) and returns its bash check. */
export function createChecker(layout: FixtureLayout): Checker {
  const capability = buildCapability({ workspaceRoot: layout.ws, readRoots: [layout.ro], tools: ['bash'], sandbox: 'off' }, { sandbox: 'off', toolModules: [] });
  const paths = new SessionPaths(capability);
  return (command) => checkCommand(paths, command, layout.ws, layout.home, false);
}
