// Runs bash commands in one sandbox-'required' session of the built runtime and prints their results as JSON, so
// a test can run the same commands as root and, through runuser, as an unprivileged user.
// argv[2]: JSON { workspaceRoot, commands: string[], limits?: object, sandbox?: mode, envPath?: PATH for the runtime,
// sandboxZygote?: boolean, net? }. A command starting with "host: " runs on the host (sh -c, in the workspace) between calls.
import { execFileSync } from 'node:child_process';
import { createRuntime } from '../../dist/runtime/index.js';

const { workspaceRoot, commands, limits, sandbox = 'required', envPath, excludedPaths, sandboxZygote, net } = JSON.parse(process.argv[2] ?? '{}');
if (envPath !== undefined) process.env.PATH = envPath;
const rt = await createRuntime({ idleWorkers: 1, ...(sandboxZygote === undefined ? {} : { sandboxZygote }) });
const results = [];
try {
  const session = await rt.openSession({ workspaceRoot, tools: ['bash'], sandbox, ...(limits ? { limits } : {}), ...(excludedPaths ? { excludedPaths } : {}), ...(net === undefined ? {} : { net }) });
  for (const command of commands) {
    if (command.startsWith('host: ')) {
      const stdout = execFileSync('sh', ['-c', command.slice(6)], { cwd: workspaceRoot, encoding: 'utf8' });
      results.push({ command, isError: false, code: null, exitCode: 0, stdout, stderr: '', text: stdout, blocked: null, sandboxWarning: null });
      continue;
    }
    const result = await session.call('bash', { command });
    const sc = result.structuredContent ?? {};
    results.push({ command, isError: result.isError === true, code: result.code ?? null, exitCode: sc.exitCode ?? null, stdout: sc.stdout ?? '', stderr: sc.stderr ?? '', text: result.content[0]?.text ?? '', blocked: sc.blockedPaths ?? null, sandboxWarning: sc.sandboxWarning ?? null });
  }
} catch (error) {
  results.push({ fatal: String(error?.code ?? ''), message: String(error?.message ?? error) });
} finally {
  await rt.close();
}
process.stdout.write(JSON.stringify(results));
