// A synchronous, dependency-free guess of whether this browser holds a session, so the landing page can choose its
// navigation without loading Amplify. Amplify keeps `CognitoIdentityServiceProvider.<clientId>.LastAuthUser` in
// localStorage while signed in. The guess is confirmed (or corrected) by the auth module once it is loaded.
const AMPLIFY_KEY_PREFIX = 'CognitoIdentityServiceProvider.';
const LAST_AUTH_USER_SUFFIX = '.LastAuthUser';

const listeners = new Set<() => void>();

export function hasStoredSession(): boolean {
  try {
    for (let index = 0; index < localStorage.length; index++) {
      const key = localStorage.key(index);
      if (key?.startsWith(AMPLIFY_KEY_PREFIX) && key.endsWith(LAST_AUTH_USER_SUFFIX)) return true;
    }
  } catch {
    // Storage can be unavailable (privacy modes); then nobody is signed in here.
  }
  return false;
}

/** Called by the auth module after it signs in or out, since same-tab localStorage writes fire no event. */
export function notifySessionChange(): void {
  for (const listener of listeners) listener();
}

export function subscribeSessionHint(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}
