import { getFirstStepsRoute } from '../contracts/api.js';
import { route } from '../core/http.js';
import { firstSteps } from '../domain/first-steps.js';

export const handler = route(getFirstStepsRoute, ({ caller }) => firstSteps(caller.userId));
