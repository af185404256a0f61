// `npm run bundles`: finds, or builds, the bundle of every function as it deploys (lib/local/bundles.ts: CDK's own
// esbuild command and asset folders), in the twin's cache outside the project, and says where. `npm test` runs it
// first (pretest), so that the test layers' twins all start from a warm cache.
import { bundleCacheDirectory, ensureBundles } from '../lib/local/bundles.js';
import { deployedFunctions } from '../lib/local/deployed-functions.js';

const bundles = await ensureBundles(deployedFunctions(), { progress: (line) => console.log(line) });
console.log(`${bundles.size} function bundles in ${bundleCacheDirectory()}`);
