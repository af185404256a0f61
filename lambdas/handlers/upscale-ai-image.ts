import { UpscaleImageRequest } from '../contracts/generations.js';
import { userRoute } from '../core/http.js';
import { upscaleImage } from '../domain/generation/requests.js';

export const handler = userRoute({ body: UpscaleImageRequest, idempotent: true }, ({ caller, profile, body, idempotencyKey }) =>
  upscaleImage({ caller, idempotencyKey, balance: profile.current_credits }, body),
);
