import type { PlainError } from '../errors.js';

/** The readable boundary of a walk: links are followed only to real paths inside one of these roots. */
export interface WalkScope {
  /** Canonical (realpath) readable roots: the workspace root first (results are shown relative to it), then the read roots. */
  readonly roots: readonly string[];
}

/** A grep over a file or a directory tree. */
export interface GrepRequest {
  /** Canonical path already checked readable by the broker: a directory or a single file. */
  readonly root: string;
  /** A JavaScript regular expression, matched line by line. */
  readonly pattern: string;
  /** Case-insensitive matching. @default false */
  readonly ignoreCase?: boolean;
  /** Only search files matching this glob; without a `/` it matches the file name at any depth. */
  readonly glob?: string;
  /** Matches returned at most; one more sets `truncated`. */
  readonly maxResults: number;
  /** Also walk `.git` and `node_modules`. @default false */
  readonly includeIgnored?: boolean;
  /** Where links may lead. */
  readonly scope: WalkScope;
  /** Files larger than this are skipped. @default 2097152 (2 MiB) */
  readonly maxFileBytes?: number;
}

/** One matching line. */
export interface GrepMatch {
  /** Relative to the workspace root, `/`-separated (absolute for a file outside it, under a read root). */
  readonly path: string;
  /** 1-based line number. */
  readonly line: number;
  /** The line, cut to about 300 characters around the match. */
  readonly text: string;
}

/** What a grep found, sorted by path then line. */
export interface GrepOutcome {
  readonly matches: GrepMatch[];
  /** More matches existed than `maxResults`. */
  readonly truncated: boolean;
  /** Text files read (binary and oversized files are not counted). */
  readonly filesScanned: number;
}

/** A glob over a directory tree; only files are returned. */
export interface GlobRequest {
  /** Canonical directory already checked readable by the broker. */
  readonly root: string;
  /** A picomatch glob matched against paths relative to `root` (dot files included). */
  readonly pattern: string;
  /** Paths returned at most; one more sets `truncated`. */
  readonly maxResults: number;
  /** Also walk `.git` and `node_modules`. @default false */
  readonly includeIgnored?: boolean;
  /** Where links may lead. */
  readonly scope: WalkScope;
}

/** What a glob found, sorted. */
export interface GlobOutcome {
  /** Relative to the workspace root, `/`-separated (absolute outside it), sorted by code unit. */
  readonly paths: string[];
  /** More paths existed than `maxResults`. */
  readonly truncated: boolean;
}

/** What the walk task posts back: plain data only, because error classes do not survive the thread boundary. */
export type WalkTaskResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: PlainError };
