import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** A new screen starts at its top, unless the URL names a section (#hash), which the screen scrolls to itself. */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) window.scrollTo({ top: 0, behavior: 'instant' });
  }, [pathname, hash]);
  return null;
}
