// ffmpeg and ffprobe for the functions that run lambdas/media in the cloud: a layer holding the static x86_64 builds
// shipped inside npm packages (lib/media-binaries.ts) at /opt/bin, and the environment that points lambdas/media at
// them. The builds are x86_64 only (no arm64 package installs on the x64 machines that synthesize), so the functions
// that use the layer run on x86_64.
import { AssetHashType } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { MEDIA_PACKAGES, stageMediaBinaries } from '../media-binaries.js';

export class MediaLayer extends Construct {
  static readonly architecture = Architecture.X86_64;
  /** lambdas/media/tools.ts reads these. */
  static readonly environment = { FFMPEG_PATH: '/opt/bin/ffmpeg', FFPROBE_PATH: '/opt/bin/ffprobe' } as const;

  readonly layer: LayerVersion;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const { directory, versions } = stageMediaBinaries();
    this.layer = new LayerVersion(this, 'Layer', {
      // The package versions identify the content: hashing 150 MB of binaries on every synth would say the same.
      code: Code.fromAsset(directory, { assetHashType: AssetHashType.CUSTOM, assetHash: `ffmpeg-${versions.ffmpeg}-ffprobe-${versions.ffprobe}` }),
      compatibleArchitectures: [MediaLayer.architecture],
      compatibleRuntimes: [Runtime.NODEJS_22_X],
      description: `Static ffmpeg (npm ${MEDIA_PACKAGES.ffmpeg} ${versions.ffmpeg}) and ffprobe (npm ${MEDIA_PACKAGES.ffprobe} ${versions.ffprobe}) at /opt/bin`,
    });
  }
}
