import { buildOpenApiDocument } from '../contracts/openapi.js';
import { publicRoute } from '../core/http.js';
import { ROUTES } from '../routes.js';

let document: Record<string, unknown> | undefined;

/** The public API's OpenAPI 3.1 document (built once per cold start from the zod contracts and the route table). */
export const handler = publicRoute({}, async () => (document ??= buildOpenApiDocument(ROUTES)));
