// `npm run event -- <function>`: prints a valid sample event for one function, to edit and pass to
// `npm run invoke -- <function> --event file.json` (as `sam local generate-event` does): a route's payload v2 event
// with JWT claims and a body that passes its zod contract, a workflow task's input as its ASL hands it over, or the
// event EventBridge, API Gateway's WebSocket API or a DynamoDB stream sends.
import { findFunction, sampleEvent, unknownFunctionMessage } from '../lib/local/functions.js';

const name = process.argv[2];
if (!name || !findFunction(name)) {
  console.error(name ? unknownFunctionMessage(name) : `Usage: npm run event -- <function>\n\n${unknownFunctionMessage('').split('\n').slice(1).join('\n')}`);
  process.exit(2);
}
console.log(JSON.stringify(await sampleEvent(name), null, 2));
