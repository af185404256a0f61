import { userRoute } from '../core/http.js';

export const handler = userRoute({}, async ({ profile }) => profile);
