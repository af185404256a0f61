import { useSyncExternalStore } from 'react';
import { Toaster } from 'sonner';

/** Sonner lays toasts across the whole width below this; on a phone they come from the top, clear of the buttons at the bottom. */
const PHONE = '(max-width: 600px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const onPhone = () => window.matchMedia(PHONE).matches;

/** Loaded after the first paint; toasts raised before it mounts are shown once it does. */
export default function AppToaster() {
  const phone = useSyncExternalStore(subscribe, onPhone, () => false);
  return <Toaster richColors closeButton position={phone ? 'top-center' : 'bottom-right'} toastOptions={{ duration: 5000 }} />;
}
