// The ffmpeg and ffprobe that run in the cloud: static x86_64 Linux builds shipped inside two npm packages (nothing
// is downloaded at install, build or run time). They are staged once per package version into a folder laid out as
// the media layer's content (bin/ffmpeg, bin/ffprobe, executable by anyone: Lambda runs code as another user than
// the one that unpacked the layer).
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const MEDIA_PACKAGES = { ffmpeg: '@ffmpeg-installer/linux-x64', ffprobe: '@ffprobe-installer/linux-x64' } as const;
export type MediaBinary = keyof typeof MEDIA_PACKAGES;

export interface StagedMediaBinaries {
  /** The layer's content: bin/ffmpeg and bin/ffprobe. */
  directory: string;
  paths: Record<MediaBinary, string>;
  /** Package versions, e.g. { ffmpeg: '4.1.0', ffprobe: '5.2.0' }: they identify the content. */
  versions: Record<MediaBinary, string>;
}

const require = createRequire(import.meta.url);

function packageOf(binary: MediaBinary): { file: string; version: string } | undefined {
  let manifest: string;
  try {
    manifest = require.resolve(`${MEDIA_PACKAGES[binary]}/package.json`);
  } catch {
    return undefined;
  }
  const file = join(dirname(manifest), binary);
  if (!existsSync(file)) return undefined;
  return { file, version: (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version };
}

/** The installed binaries, or undefined where the packages are not installed (they install on linux-x64 only). */
export function installedMediaBinaries(): Record<MediaBinary, { file: string; version: string }> | undefined {
  const ffmpeg = packageOf('ffmpeg');
  const ffprobe = packageOf('ffprobe');
  return ffmpeg && ffprobe ? { ffmpeg, ffprobe } : undefined;
}

export const MISSING_MEDIA_PACKAGES_MESSAGE =
  `The media layer (ffmpeg for the video functions) is built from the npm packages ${MEDIA_PACKAGES.ffmpeg} and ` +
  `${MEDIA_PACKAGES.ffprobe}, which are not installed here: npm installs them on linux-x64 only. Synthesize on a ` +
  'linux x64 machine (or in CI) after `npm ci`.';

/** Stages the binaries (hard links where possible) and returns where; throws naming the packages when they are missing. */
export function stageMediaBinaries(find = installedMediaBinaries): StagedMediaBinaries {
  const installed = find();
  if (!installed) throw new Error(MISSING_MEDIA_PACKAGES_MESSAGE);
  const versions = { ffmpeg: installed.ffmpeg.version, ffprobe: installed.ffprobe.version };
  const directory = join(tmpdir(), `modelloop-media-layer-ffmpeg-${versions.ffmpeg}-ffprobe-${versions.ffprobe}`);
  const paths = { ffmpeg: join(directory, 'bin', 'ffmpeg'), ffprobe: join(directory, 'bin', 'ffprobe') };
  if (!existsSync(paths.ffmpeg) || !existsSync(paths.ffprobe)) {
    // Built beside the final folder and renamed into place, so a concurrent synth never sees half a folder.
    const building = mkdtempSync(`${directory}.building-`);
    mkdirSync(join(building, 'bin'));
    for (const binary of ['ffmpeg', 'ffprobe'] as const) {
      const target = join(building, 'bin', binary);
      try {
        linkSync(installed[binary].file, target);
      } catch {
        copyFileSync(installed[binary].file, target);
      }
      chmodSync(target, 0o755);
    }
    try {
      renameSync(building, directory);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(paths.ffmpeg)) throw error;
    }
  }
  return { directory, paths, versions };
}
