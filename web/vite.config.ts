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

function reactRouterProductionBuild() {
  const dist = fileURLToPath(new URL('../node_modules/react-router/dist/production/', import.meta.url));
  return [
    { find: /^react-router$/, replacement: join(dist, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: join(dist, 'dom-export.mjs') },
  ];
}

// The web app is built from web/ into web/dist; the local twin and CloudFront serve that folder plus /config.json.
export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss(), pruneStaleAssets()],
  resolve: {
    alias: [
      { find: '@contracts', replacement: fileURLToPath(new URL('../lambdas/contracts', import.meta.url)) },
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // React Router's package exports name only its development build (dev-only warnings switched on); a
      // production build takes the production files it ships beside them.
      ...(command === 'build' ? reactRouterProductionBuild() : []),
    ],
  },
  build: {
    outDir,
    emptyOutDir: false,
    // bench/web-size.ts reads the manifest to know what the landing page loads first.
    manifest: true,
    target: 'es2022',
    // Every browser the target admits preloads modules itself; the polyfill would only add to the first download.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React, React DOM and the router in one file, fetched by every screen and cached across releases, instead
          // of several small shared chunks that each compress on their own.
          groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/ }],
        },
      },
    },
  },
}));
