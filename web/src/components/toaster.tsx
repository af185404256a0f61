import { Toaster } from 'sonner';

/** Loaded after the first paint; toasts raised before it mounts are shown once it does. */
export default function AppToaster() {
  return <Toaster richColors closeButton position="bottom-right" toastOptions={{ duration: 5000 }} />;
}
