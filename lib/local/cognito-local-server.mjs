// Runs cognito-local in its data directory (this process's working directory). Codes it would e-mail are written
// as one JSON line each, synchronously, the moment they are made ({"delivery":{"email","code"}}): its own console
// sender prints them through a buffered logger that can hold a code back until the next request.
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(createRequire(import.meta.url).resolve('cognito-local/package.json'));
const pino = require('pino');
const { ConsoleMessageSender } = require('./lib/services/messageDelivery/consoleMessageSender');
const { createDefaultServer } = require('./lib/server');

ConsoleMessageSender.prototype.sendToConsole = (_ctx, _user, destination, { __code }) => {
  writeSync(1, `${JSON.stringify({ delivery: { email: destination, code: __code } })}\n`);
  return Promise.resolve();
};

const logger = pino({ level: process.env.DEBUG ? 'debug' : 'warn' });
const server = await createDefaultServer(logger);
await server.start();
writeSync(1, `${JSON.stringify({ msg: 'cognito-local ready' })}\n`);
