export { createNodeGuardFs } from './guard-fs.js';
export { getFdRealPath, verifyDirectory } from './fd-path.js';
export { toFsError } from './fs-error.js';
export { mkdirVerified } from './mkdir-verified.js';
export { openVerified, openVerifiedWithStat, type IsAllowed } from './open-verified.js';
export { removeVerified } from './remove-verified.js';
export { createReadCheck, createWriteCheck } from './scope-checks.js';
export { writeFileAtomic } from './write-atomic.js';
