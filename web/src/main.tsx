import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles.css';
import { paths } from '@/lib/paths';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// index.html carries the landing page prerendered (web/src/prerender.tsx): hydrated in place at /. Every other screen
// comes with the empty shell (app.html), or starts over if it got the landing page's HTML.
if (container.firstElementChild && window.location.pathname === paths.home) {
  // After the first paint: hydrating takes a slow phone's main thread for a while, and the page is already there.
  requestAnimationFrame(() => setTimeout(() => hydrateRoot(container, app), 0));
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}
