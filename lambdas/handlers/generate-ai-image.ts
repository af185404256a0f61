import { GenerateImageRequest } from '../contracts/generations.js';
import { userRoute } from '../core/http.js';
import { generateOnModelImage } from '../domain/generation/requests.js';

export const handler = userRoute({ body: GenerateImageRequest, idempotent: true }, ({ caller, profile, body, idempotencyKey }) =>
  generateOnModelImage({ caller, idempotencyKey, balance: profile.current_credits }, body),
);
