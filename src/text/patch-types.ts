/** One line of a hunk: kept (`context`), taken out (`remove`) or put in (`add`). */
export interface HunkLine {
  kind: 'context' | 'remove' | 'add';
  text: string;
}

/** A change to one region of a file. */
export interface Hunk {
  /** Lines to find first, in order, before the hunk (`@@ def f():` in the `*** Begin Patch` format). */
  anchors: string[];
  /** 1-based first old line from a unified `@@ -l,n +l,n @@` header: a hint for placement, not a requirement. */
  oldStart?: number;
  lines: HunkLine[];
  /** The hunk must end at the end of the file (`*** End of File`, or a no-newline marker on the old side). */
  atEof: boolean;
  /** The old side's last line had `\ No newline at end of file`. */
  oldNoNewline: boolean;
  /** The new side's last line had `\ No newline at end of file`. */
  newNoNewline: boolean;
  /** 1-based line in the patch text where the hunk starts, for messages. */
  patchLine: number;
  /** The hunk's header as written (`@@ -3,4 +3,5 @@`), or `''` when it had none, for messages. */
  header: string;
}

/** One file operation of a patch. */
export type PatchOp =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; hunks: Hunk[] };

/** The old side of a hunk: the lines it expects in the file. */
export function getOldLines(hunk: Hunk): string[] {
  return hunk.lines.filter((line) => line.kind !== 'add').map((line) => line.text);
}
