// Runs shell probes inside the bubblewrap layout an isolated tool process gets (the same argv the runtime spawns
// node with, the program after `--` replaced by /bin/sh), so a test can probe it as root and, through runuser, as
// an unprivileged user. Node's permission model would stop most probes first; this shows what bwrap alone stops.
// argv[2]: JSON { readPaths: string[], scripts: string[] }; prints JSON [{ script, stdout, stderr, code }].
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { detectSandbox } from '../../dist/runtime/sandbox/detect-sandbox.js';
import { featuresOf } from '../../dist/runtime/sandbox/create-sandbox.js';
import { toolProcessBwrap } from '../../dist/runtime/isolation/start-tool-process.js';

const { readPaths, scripts } = JSON.parse(process.argv[2] ?? '{}');
const detection = await detectSandbox();
if (!detection.available) {
  process.stdout.write(JSON.stringify([{ fatal: detection.reason }]));
  process.exit(0);
}
const features = featuresOf(detection);
const { argv, filter } = toolProcessBwrap({ bwrapPath: detection.path, features }, readPaths);
const [file, ...args] = argv;
const results = [];
for (const script of scripts) {
  const fd = filter === undefined ? 'ignore' : openSync(filter, 'r');
  const run = spawnSync(file, [...args, '/bin/sh', '-c', script], { env: { PATH: '/usr/bin:/bin' }, cwd: '/', encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe', fd] });
  if (fd !== 'ignore') closeSync(fd);
  results.push({ script, stdout: run.stdout, stderr: run.stderr, code: run.status, features });
}
process.stdout.write(JSON.stringify(results));
