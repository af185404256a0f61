// WebSocket $connect authorizer (REQUEST type, identity source: the `token` query string).
import { idTokenVerifierFromEnv } from '../core/jwt.js';
import { authorizeConnect } from '../realtime/authorizer.js';
import type { ConnectAuthorizerHandler } from '../realtime/events.js';

const verifier = idTokenVerifierFromEnv();

export const handler: ConnectAuthorizerHandler = (event) => authorizeConnect(event, verifier);
