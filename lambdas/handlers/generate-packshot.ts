import { generatePackshotRoute } from '../contracts/packshots.js';
import { generatePackshot } from '../domain/marketplace/requests.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute(generatePackshotRoute, 'generate-packshot', ({ spending, body }) => generatePackshot(spending, body));
