// The session as the screens see it. Kept free of Amplify so route guards can live in the first-load chunk;
// the provider that fills it (app/providers.tsx) is loaded lazily.
import type { RuntimeConfig } from '@contracts/api';
import { createContext, useContext } from 'react';
import type { SessionUser } from './auth';

export type SessionState =
  | { status: 'loading' }
  /** afterSignOut: the user just signed out here, so signed-in screens send them home rather than to /auth. */
  | { status: 'signedOut'; afterSignOut?: boolean }
  | { status: 'signedIn'; user: SessionUser };

export interface Session {
  state: SessionState;
  config: RuntimeConfig;
  /** Signs out in this browser, returns to / and says so. */
  signOut: () => Promise<void>;
  /** Re-reads the stored tokens, e.g. after a sign-in step finished. */
  refresh: () => Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is used outside the app providers');
  return session;
}

/** The signed-in user; only for screens behind RequireAuth. */
export function useUser(): SessionUser {
  const { state } = useSession();
  if (state.status !== 'signedIn') throw new Error('useUser is used on a screen that does not require a session');
  return state.user;
}
