import { getOpenApiRoute } from '../contracts/api-keys.js';
import { buildOpenApiDocument } from '../contracts/openapi.js';
import { route } from '../core/http.js';
import { ROUTES } from '../routes.js';

let document: Record<string, unknown> | undefined;

/** The public API's OpenAPI 3.1 document (built once per cold start from the zod contracts and the route table). */
export const handler = route(getOpenApiRoute, async () => (document ??= buildOpenApiDocument(ROUTES)));
