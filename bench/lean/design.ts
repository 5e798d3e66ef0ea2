// The lean designs: toolwarden's own design (main thread reads, one worker per session formats) written as bare as
// possible, measured next to toolwarden so a report tells a miss the code can fix from one beyond the design.

/** A lean design serving `lanes` sessions, one worker each; a lane makes one call at a time, like a session. */
export interface LeanDesign {
  /** What the rows call it, e.g. `lean MessagePort`. */
  readonly label: string;
  /** read_file's work the design's way: realpath, a synchronous read on the main thread, the worker formats. */
  read(file: string, lane: number): Promise<string>;
  /** A call that does nothing in the worker: the design's round trip alone. */
  noop(lane: number): Promise<string>;
  close(): Promise<void>;
}

/** Which call a lean worker is asked to serve. */
export const LEAN_OPS = { read: 1, noop: 2 } as const;

/** What a lean worker answers a no-op call with. */
export const NOOP_REPLY = 'ok';
