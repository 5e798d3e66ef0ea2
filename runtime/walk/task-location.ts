import { fileURLToPath } from 'node:url';
import { ToolwardenError } from '../../src/errors.js';
import { findWorkerFile, workerFileUrl } from '../tool-hosts/worker-url.js';

/**
 * The URL of the walk pool's task file. Piscina threads need real JavaScript: compiled, it sits next to this
 * module's own compiled tree (`dist/workers/walk/task.js`); run from TypeScript source (tests), the compiled
 * copy under `<repo>/dist` is used instead (see findWorkerFile).
 * @throws ToolwardenError INTERNAL when neither exists (the project was not built: run `npm run build`).
 */
export function locateWalkTask(): URL {
  const found = findWorkerFile('walk-task');
  if (found !== undefined) return found;
  throw new ToolwardenError('INTERNAL', `walk task file not found at '${fileURLToPath(workerFileUrl('walk-task'))}'; run 'npm run build' first`);
}
