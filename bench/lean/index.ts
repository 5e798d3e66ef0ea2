// The lean designs (see design.ts) and what starting both for a scenario takes.
import type { LeanDesign } from './design.js';
import { startLeanPort } from './port-design.js';
import { startLeanSab } from './sab-design.js';

export type { LeanDesign } from './design.js';
export { startLeanPort } from './port-design.js';
export { startLeanSab } from './sab-design.js';

/** Both lean designs, one worker per lane each. */
export interface LeanPair {
  port: LeanDesign;
  sab: LeanDesign;
  close(): Promise<void>;
}

/** Starts both lean designs with `lanes` workers each; a SharedArrayBuffer lane holds `laneBytes` of call and answer. */
export async function startLeanPair(root: string, lanes: number, laneBytes: number): Promise<LeanPair> {
  const port = await startLeanPort(root, lanes);
  const sab = await startLeanSab(root, lanes, laneBytes).catch(async (error: unknown) => {
    await port.close();
    throw error;
  });
  return { port, sab, close: async () => void (await Promise.all([port.close(), sab.close()])) };
}

/**
 * Throws unless the lean designs answer `file` with the very text toolwarden's read_file gave (`expected`): their
 * figures only mean something if they did the same work.
 */
export async function assertSameAnswer(pair: LeanPair, file: string, expected: string): Promise<void> {
  for (const design of [pair.port, pair.sab]) {
    const text = await design.read(file, 0);
    if (text !== expected) throw new Error(`${design.label} answered ${file} with ${text.length} characters where read_file gave ${expected.length}`);
  }
}
