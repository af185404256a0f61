import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('./dist', import.meta.url));

/**
 * A rebuild replaces web/dist in place instead of emptying it first: the local twin keeps serving the previous app
 * until the new files are written, then the assets no longer referenced are removed.
 */
function pruneStaleAssets(): Plugin {
  return {
    name: 'modelloop:prune-stale-assets',
    apply: 'build',
    writeBundle(_options, bundle) {
      const assetsDir = join(outDir, 'assets');
      for (const file of readdirSync(assetsDir)) {
        if (!(`assets/${file}` in bundle)) rmSync(join(assetsDir, file), { force: true });
      }
    },
  };
}

// The web app is built from web/ into web/dist; the local twin and CloudFront serve that folder plus /config.json.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss(), pruneStaleAssets()],
  resolve: {
    alias: {
      '@contracts': fileURLToPath(new URL('../lambdas/contracts', import.meta.url)),
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  build: {
    outDir,
    emptyOutDir: false,
    // bench/web-size.ts reads the manifest to know what the landing page loads first.
    manifest: true,
    target: 'es2022',
  },
});
