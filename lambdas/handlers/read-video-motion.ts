import { readVideoMotionRoute } from '../contracts/video.js';
import { route } from '../core/http.js';
import { videoMotionReading } from '../providers/video-help.js';

// What the configured video engine will make of a motion prompt: read only, free, asked before paying.
export const handler = route(readVideoMotionRoute, async ({ query }) => videoMotionReading(query.prompt));
