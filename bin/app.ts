// Entry point of `cdk synth` / `cdk deploy` (cdk.json: npx tsx bin/app.ts).
import { createModelLoopApp } from '../lib/modelloop-app.js';

createModelLoopApp().app.synth();
