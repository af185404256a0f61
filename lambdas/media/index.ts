// Video and image helpers of the video workflow's finalize step (ffmpeg/ffprobe from Debian's `ffmpeg` package).
export { probeVideo, type VideoProbe } from './probe.js';
export { normalizeVideo, remuxFaststart, DELIVERY_FPS, type NormalizeTarget } from './normalize.js';
export { seamScore, measureSeam, seamScoreOf, type SeamMeasurement } from './seam-score.js';
export { repairLoop, LOOP_CROSSFADE_SECONDS } from './repair-loop.js';
export { sealLoop, MAX_SEAM_SCORE, type SealedLoop } from './seal-loop.js';
export { thumbnail, type Poster } from './thumbnail.js';
