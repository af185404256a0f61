import { getEditInstructionsRoute } from '../contracts/generations.js';
import { route } from '../core/http.js';
import { editInstructions } from '../providers/edit-help.js';

// What the edit screen shows as help, from the configured edit adapter. The answer doesn't change while the
// container lives, so it is worked out once.
let answer: ReturnType<typeof editInstructions> | undefined;

export const handler = route(getEditInstructionsRoute, async () => {
  answer ??= editInstructions().catch((error: unknown) => {
    answer = undefined;
    throw error;
  });
  return answer;
});
