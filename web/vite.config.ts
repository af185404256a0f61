import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('./dist', import.meta.url));
const ALIASES = [
  { find: '@contracts', replacement: fileURLToPath(new URL('../lambdas/contracts', import.meta.url)) },
  { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
];
const ROOT_ELEMENT = '<div id="root"></div>';
const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/;

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

/**
 * After the client build: the landing page rendered to HTML (src/prerender.tsx, built for Node into a temporary
 * folder) goes into index.html, which is what `/` serves, so a first visit paints before any script has run. Every
 * other path is served app.html, the same page with an empty root, which the app renders from scratch.
 */
function prerenderLanding(): Plugin {
  return {
    name: 'modelloop:prerender-landing',
    apply: 'build',
    async closeBundle() {
      // Inside the project, so Node resolves the bundle's imports (react, react-router, …) from node_modules.
      const ssrOut = mkdtempSync(join(root, '.prerender-'));
      try {
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react()],
          resolve: { alias: ALIASES },
          build: { ssr: 'src/prerender.tsx', outDir: ssrOut, emptyOutDir: true, copyPublicDir: false, target: 'node20' },
        });
        const { renderLanding } = (await import(pathToFileURL(join(ssrOut, 'prerender.js')).href)) as { renderLanding: () => string };
        const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
        if (!shell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to prerender into`);
        writeFileSync(join(outDir, 'app.html'), shell);
        // The stylesheet inline too (the CSP allows inline styles): the landing page paints with the HTML alone,
        // without waiting for another request, and before the scripts run.
        const landing = shell
          .replace(STYLESHEET_LINK, (_, href: string) => `<style>${readFileSync(join(outDir, href), 'utf8').trim()}</style>`)
          .replace(ROOT_ELEMENT, `<div id="root">${renderLanding()}</div>`);
        writeFileSync(join(outDir, 'index.html'), landing);
      } finally {
        rmSync(ssrOut, { recursive: true, force: true });
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
  root,
  plugins: [react(), tailwindcss(), pruneStaleAssets(), prerenderLanding()],
  resolve: {
    alias: [
      ...ALIASES,
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
