import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractSamples, type DocSample } from './doc-samples.js';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The pages whose samples run: the README and every page directly in docs/. docs/pending/ holds drafts that are folded
 * into these pages later, so it is not read.
 */
export function docPages(): string[] {
  const docs = fs.readdirSync(path.join(REPO, 'docs')).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

/** A page's text. */
export function readPage(page: string): string {
  return fs.readFileSync(path.join(REPO, page), 'utf8');
}

/** Every fenced block of every page, in page order. */
export function allSamples(): DocSample[] {
  return docPages().flatMap((page) => extractSamples(page, readPage(page)));
}
