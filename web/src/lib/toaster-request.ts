// Whether the toast container is wanted yet. The landing page raises no toast in ordinary use, so its first download
// leaves the toast library out; every other screen mounts the container, and so does the landing page the moment
// something there asks for it (a toast raised before the container mounts is shown once it does).
const listeners = new Set<() => void>();
let requested = false;

export function requestToaster(): void {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

export function toasterRequested(): boolean {
  return requested;
}

export function subscribeToasterRequest(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
