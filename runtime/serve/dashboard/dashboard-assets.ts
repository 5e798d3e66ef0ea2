import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A file of the dashboard page, served as it is. */
export interface DashboardAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

/** The page's files by the path they are served at: plain HTML, CSS and one script, no build step and no CDN. */
const ASSETS: Record<string, { file: string; contentType: string }> = {
  '/ui': { file: 'index.html', contentType: 'text/html; charset=utf-8' },
  '/ui/app.js': { file: 'app.js', contentType: 'text/javascript; charset=utf-8' },
  '/ui/app.css': { file: 'app.css', contentType: 'text/css; charset=utf-8' },
};

/**
 * Reads the dashboard's files once. They live in `runtime/serve/dashboard/assets/` of the package (shipped by its
 * `files`); compiled code under `dist/` reads the same folder, so there is one copy and no copy step.
 */
export function loadDashboardAssets(): ReadonlyMap<string, DashboardAsset> {
  const beside = new URL('./assets/', import.meta.url);
  const fromDist = new URL('../../../../runtime/serve/dashboard/assets/', import.meta.url);
  const folder = existsSync(new URL('index.html', beside)) ? beside : fromDist;
  return new Map(Object.entries(ASSETS).map(([at, { file, contentType }]) => [at, { body: readFileSync(fileURLToPath(new URL(file, folder))), contentType }]));
}
