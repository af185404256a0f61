// The landing page rendered to HTML at build time (web/vite.config.ts puts it into index.html), so a first visit
// paints from the HTML and its CSS alone; the app then hydrates it. Rendered through the same AppContent as the
// browser, so the markup is the same.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppContent } from './app/app';
import { paths } from '@/lib/paths';

export function renderLanding(): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location={paths.home}>
        <AppContent />
      </StaticRouter>
    </StrictMode>,
  );
}
