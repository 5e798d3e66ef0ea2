/** The broker's walk pool (grep and glob in piscina threads) and its request and outcome types. */
export { WalkPool, type WalkPoolOptions } from './pool.js';
export { locateWalkTask } from './task-location.js';
export type { GlobOutcome, GlobRequest, GrepMatch, GrepOutcome, GrepRequest, WalkScope } from '../../src/walk/types.js';
