import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDashboardAssets } from '../../../runtime/serve/dashboard/dashboard-assets.js';

const SOURCE = new URL('../../../runtime/serve/dashboard/assets/', import.meta.url);

describe('the dashboard page files', () => {
  it('are found from the source tree and from the compiled dist/ alike, one copy for both', async () => {
    const compiled = (await import(new URL('../../../dist/runtime/serve/dashboard/dashboard-assets.js', import.meta.url).href)) as { loadDashboardAssets: typeof loadDashboardAssets };
    for (const assets of [loadDashboardAssets(), compiled.loadDashboardAssets()]) {
      expect([...assets.keys()].sort()).toEqual(['/ui', '/ui/app.css', '/ui/app.js']);
      expect(assets.get('/ui/app.js')!.body.equals(fs.readFileSync(new URL('app.js', SOURCE)))).toBe(true);
      expect(assets.get('/ui')!.contentType).toBe('text/html; charset=utf-8');
    }
  });

  it('load nothing from another origin (no CDN)', () => {
    for (const file of ['index.html', 'app.js', 'app.css']) {
      const text = fs.readFileSync(new URL(file, SOURCE), 'utf8');
      expect(text, file).not.toMatch(/https?:\/\/(?!localhost)/);
      expect(text, file).not.toMatch(/@import|url\(/);
    }
  });
});
