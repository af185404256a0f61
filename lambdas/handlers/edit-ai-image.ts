import { EditImageRequest } from '../contracts/generations.js';
import { userRoute } from '../core/http.js';
import { editImage } from '../domain/generation/requests.js';

export const handler = userRoute({ body: EditImageRequest, idempotent: true }, ({ caller, profile, body, idempotencyKey }) =>
  editImage({ caller, idempotencyKey, balance: profile.current_credits }, body),
);
