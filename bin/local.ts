// `npm start`: the whole studio on this machine (the local twin), one process tree, stopped with Ctrl-C.
// `npm run dev`: the same with Vite's dev server (hot reload) instead of the built app.
// `npm start -- --demo`: also seeds the demo studio (lib/local/demo.ts) and prints how to sign in to it.
import { relative, resolve } from 'node:path';
import { DEMO_ACCOUNT, printDemoSignIn, printDemoSummary, seedDemo } from '../lib/local/demo.js';
import { onLaunchersGone } from '../lib/local/processes.js';
import { PORT_ENV, publishTwinInfo, startTwin, type TwinPorts } from '../lib/local/twin.js';

const root = resolve(import.meta.dirname, '..');
const dataDir = resolve(root, process.env.MODELLOOP_DATA_DIR ?? '.data');
const dev = process.argv.includes('--dev');
const verbose = process.argv.includes('--verbose');
const demo = process.argv.includes('--demo');

const DEFAULT_PORTS: TwinPorts = { gateway: 5173, dynamodb: 8000, s3: 4569, cognito: 9229, stepfunctions: 8083, shopify: 8084 };
const ports = Object.fromEntries(
  (Object.keys(DEFAULT_PORTS) as (keyof TwinPorts)[]).map((name) => [name, Number(process.env[PORT_ENV[name]] ?? DEFAULT_PORTS[name])]),
) as unknown as TwinPorts;

async function main(): Promise<void> {
  const vite = dev
    ? await (await import('vite')).createServer({ configFile: resolve(root, 'web/vite.config.ts'), server: { middlewareMode: true }, appType: 'spa' })
    : undefined;
  const twin = await startTwin({
    dataDir,
    ports,
    webRoot: resolve(root, 'web/dist'),
    webMiddleware: vite?.middlewares,
    log: (source, line) => {
      if (verbose || /error|exception/i.test(line)) console.log(`[${source}] ${line}`);
    },
    onCode: ({ email, code }) => console.log(`\n  ✉  Code for ${email}: ${code}\n`),
    progress: (line) => console.log(`  ${line}`),
  });

  const unpublish = publishTwinInfo(dataDir, twin.info);

  console.log(`
  ModelLoop is running on the local twin.

    Open      ${twin.webUrl}
    API       ${twin.apiUrl}
    Data      ${relative(process.cwd(), dataDir) || '.'}/ (kept between runs; delete it to start over)
    Mailbox   ${relative(process.cwd(), twin.mailboxFile)} (sign-up and password codes are also printed here)

  ${
    twin.config.payments === 'stripe'
      ? `Purchases use Stripe test mode (STRIPE_SECRET_KEY). Forward its webhooks here with:
      stripe listen --forward-to ${twin.apiUrl}/webhooks/stripe`
      : 'Purchases use a local test payment: no card, no money.'
  } Press Ctrl-C to stop.
`);
  if (demo) {
    console.log('  Seeding the demo studio (a minute the first time; nothing is added twice)…');
    try {
      printDemoSummary(await seedDemo(twin.info, DEMO_ACCOUNT, (line) => console.log(`    ${line}`)), twin.webUrl);
    } catch (error) {
      console.error(`  The demo studio could not be seeded completely: ${error instanceof Error ? error.message : String(error)}`);
      console.error('  Run `npm run demo` while the studio runs to finish it (nothing is added or charged twice).');
      printDemoSignIn(DEMO_ACCOUNT, twin.webUrl);
    }
  }

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping ModelLoop…');
    unpublish();
    await vite?.close();
    await twin.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGHUP', shutdown);
  // A signal that npm could not pass on (SIGKILL of `npm start`) ends npm but not this process: it notices its
  // launchers are gone and stops as for Ctrl-C, within LAUNCHER_GONE_STOP_MS at most (the emulators end with it).
  onLaunchersGone(() => {
    if (stopping) return;
    setTimeout(() => process.exit(1), LAUNCHER_GONE_STOP_MS).unref();
    void shutdown();
  });
}

/** How long the twin takes at most to stop once `npm start` is gone, before it exits without waiting further. */
const LAUNCHER_GONE_STOP_MS = 3_000;

main().catch((error: unknown) => {
  console.error(`\nModelLoop could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
