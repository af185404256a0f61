// The motion presets as periodic functions of time. A clip holds a whole number of cycles, so frame N would equal
// frame 0 and the loop is exact. Every term is an even function of the phase (built from cosines), so each motion
// turns around at the seam: the step from the last frame to the first is the smallest step of the clip. (360 Spin's
// turn is the exception that needs none: it turns at a steady pace, so every step, the seam's too, is alike.)
//
// The outputs of one order are different videos: each has its own variant (OUTPUT_VARIANTS) of the preset, another
// camera path (steady, a pan, a push in, further away and rising), the preset's swing or turn the other way, or twice
// as fast, and says so in words (describeOutput). How a custom prompt maps to a preset, and which of its phrases the
// engine renders, is readMotionPrompt.
import type { MOTION_PRESETS } from '../../contracts/catalog.js';

export type MotionPreset = (typeof MOTION_PRESETS)[number];

/** The product layer's placement in one frame, relative to its resting placement. */
export interface Pose {
  /** Negative = mirrored (the back half of a turn). */
  scaleX: number;
  scaleY: number;
  /** Radians, clockwise on screen. */
  rotation: number;
  /** Fractions of the frame's width and height. */
  shiftX: number;
  shiftY: number;
}

interface Motion {
  /** Preferred cycle length; a clip holds the nearest whole number of cycles (at least one). */
  secondsPerCycle: number;
  /** The point of the product the motion turns and scales around, as fractions of its width and height. */
  anchor: { x: number; y: number };
  /** `phase`: one cycle = 2π; `clipPhase`: the whole clip = 2π. */
  pose(phase: number, clipPhase: number, direction: 1 | -1): Pose;
}

/**
 * How the camera moves over a whole clip (one cycle per clip, cosines only, so the loop and its turn-around at the seam
 * hold). The renderer frames the scene for every pose of the clip, so no path takes the head or the product out.
 */
export interface CameraPath {
  /** The camera's distance as a zoom: below 1 it stands further away and more of the studio shows. */
  distance: number;
  /** It moves in by this share at mid-clip and back out by the end. */
  pushIn: number;
  /** It pans: at the start the picture sits this share of the frame's width right of its place (the camera is left of it), at mid-clip as far left. */
  panX: number;
  /** It rises: at the start the picture sits this share of the frame's height below its place (negative: above). */
  panY: number;
}

/** One output's variant of its preset. */
export interface MotionStyle {
  /** 1 or −1: the swing, sway or turn starts (or turns) the other way. */
  direction: 1 | -1;
  /** Multiplies the cycles in the clip (a whole number: a quicker rock, stride or turn). */
  tempo: number;
  camera: CameraPath;
}

const STEADY: CameraPath = { distance: 1, pushIn: 0, panX: 0, panY: 0 };

/**
 * The variants of an order's outputs, in order (an order has at most 5): output 1 is the preset as designed with a
 * steady camera; each other one has its own camera path, and starts the other way or goes twice as fast, so no two
 * are the same clip shifted in time or played backwards (test/unit/local-engine-video-framing.test.ts measures it).
 */
export const OUTPUT_VARIANTS: readonly MotionStyle[] = [
  { direction: 1, tempo: 1, camera: STEADY },
  { direction: -1, tempo: 1, camera: { ...STEADY, panX: 0.06 } },
  { direction: 1, tempo: 2, camera: { ...STEADY, pushIn: 0.14 } },
  { direction: -1, tempo: 1, camera: { ...STEADY, distance: 0.86, panY: -0.04 } },
  { direction: 1, tempo: 2, camera: { ...STEADY, pushIn: 0.08, panX: -0.06 } },
];

/** The variant of output `index` (0-based). Deterministic, so a retried output renders the same file. */
export function motionStyle(index: number): MotionStyle {
  return OUTPUT_VARIANTS[index % OUTPUT_VARIANTS.length]!;
}

const PRESET_STYLE: MotionStyle = motionStyle(0);

const DEGREE = Math.PI / 180;

export const MOTIONS: Readonly<Record<MotionPreset, Motion>> = {
  // Rocks on its base like a model shifting weight (±3.5°), easing in a little (6%) at each end of the swing.
  Pivot: {
    secondsPerCycle: 4,
    anchor: { x: 0.5, y: 1 },
    pose(phase, _clipPhase, direction) {
      const zoom = 1.03 + 0.03 * Math.cos(2 * phase);
      return { scaleX: zoom, scaleY: zoom, rotation: direction * 3.5 * DEGREE * Math.cos(phase), shiftX: 0, shiftY: 0 };
    },
  },
  // A stride cycle (two steps): hips sway sideways (±2.5% of the width, ±1.5°) once per cycle, the body bobs
  // (1.2% of the height) at every step, and the whole clip walks in towards the camera (up to 6%) and back.
  Catwalk: {
    secondsPerCycle: 2,
    anchor: { x: 0.5, y: 0.5 },
    pose(phase, clipPhase, direction) {
      const zoom = 1.03 - 0.03 * Math.cos(clipPhase);
      return {
        scaleX: zoom,
        scaleY: zoom,
        rotation: direction * 1.5 * DEGREE * Math.cos(phase),
        shiftX: direction * 0.025 * Math.cos(phase),
        shiftY: -0.012 * Math.cos(2 * phase),
      };
    },
  },
  // A turntable about the product's own upright axis: the width follows cos(angle), never narrower than a side view
  // (a flat cut-out edge-on would vanish and leave an empty frame), and its sign mirrors the product for the back half
  // of the turn. Which way it turns shows in the light sweeping across it (the renderer's spinLight).
  '360 Spin': {
    secondsPerCycle: 8,
    anchor: { x: 0.5, y: 0.5 },
    pose(phase) {
      const cos = Math.cos(phase);
      const width = SPIN_SIDE_WIDTH + (1 - SPIN_SIDE_WIDTH) * Math.abs(cos);
      return { scaleX: (cos >= 0 ? 1 : -1) * width, scaleY: 1, rotation: 0, shiftX: 0, shiftY: 0 };
    },
  },
};

/** 360 Spin's width edge-on, as a share of its width facing the camera: a product seen from the side. */
export const SPIN_SIDE_WIDTH = 0.22;

/** Cycles of a preset in a clip of this length (times the variant's tempo). */
export function cyclesIn(preset: MotionPreset, durationSeconds: number, style: MotionStyle = PRESET_STYLE): number {
  return Math.max(1, Math.round(durationSeconds / MOTIONS[preset].secondsPerCycle)) * style.tempo;
}

/** The pose of frame `frame` of `frameCount`, camera path included; frame `frameCount` would be frame 0 again. */
export function poseAt(preset: MotionPreset, frame: number, frameCount: number, cycles: number, style: MotionStyle = PRESET_STYLE): Pose {
  const clipPhase = (2 * Math.PI * frame) / frameCount;
  const pose = MOTIONS[preset].pose(clipPhase * cycles, clipPhase, style.direction);
  const { distance, pushIn, panX, panY } = style.camera;
  const travel = Math.cos(clipPhase);
  const zoom = distance * (1 + (pushIn * (1 - travel)) / 2);
  return {
    scaleX: pose.scaleX * zoom,
    scaleY: pose.scaleY * zoom,
    rotation: pose.rotation,
    shiftX: pose.shiftX + panX * travel,
    shiftY: pose.shiftY + panY * travel,
  };
}

/** What output `index` (0-based) of an order of this preset does, as the result says it: 'Output 2: turns the other way; …'. */
export function describeOutput(preset: MotionPreset, index: number): string {
  const { direction, tempo, camera } = motionStyle(index);
  const motion = [
    ...(direction < 0 ? [OTHER_WAY[preset]] : []),
    ...(tempo > 1 ? [tempo === 2 ? 'twice as fast' : `${tempo} times as fast`] : []),
  ];
  const moves = [
    ...(camera.pushIn > 0 ? ['moves in and back out'] : []),
    ...(camera.panX > 0 ? ['pans from left to right and back'] : camera.panX < 0 ? ['pans from right to left and back'] : []),
    ...(camera.panY < 0 ? ['rises and comes back down'] : camera.panY > 0 ? ['sinks and comes back up'] : []),
  ];
  const where = camera.distance < 1 ? 'from further away, ' : '';
  const cameraWords = moves.length ? `${where}the camera ${moves.join(' and ')}` : `${where}steady camera`;
  return `Output ${index + 1}: ${[...motion, cameraWords].join('; ')}.`;
}

const OTHER_WAY: Readonly<Record<MotionPreset, string>> = {
  Pivot: 'leans the other way first',
  Catwalk: 'sways to the other side first',
  '360 Spin': 'turns the other way',
};

/**
 * The words that select each preset in a custom motion prompt. A keyword matches at a word start, with any ending:
 * 'walk' matches 'walks' and 'walking', 'rotat' 'rotates' and 'rotation'.
 */
export const MOTION_KEYWORDS: Readonly<Record<MotionPreset, readonly string[]>> = {
  Pivot: ['pivot', 'tilt', 'lean', 'rock', 'sway gently', 'pose', 'posing', 'zoom', 'shift weight', 'shifts weight', 'side to side', 'to the left', 'to the right', 'back and forth'],
  Catwalk: ['catwalk', 'walk', 'runway', 'strut', 'stride', 'step', 'stroll', 'sway', 'bounce', 'bob', 'march', 'hips', 'towards the camera', 'toward the camera'],
  '360 Spin': ['360', 'spin', 'rotat', 'turn', 'revolv', 'orbit', 'twirl', 'pirouette', 'full circle'],
};

/**
 * Words that ask for nothing the engine leaves out: articles, the subject, directions that go with a motion word
 * ("turns to the left and back"), and the manner of a motion the presets have anyway (gentle, smooth, a seamless loop).
 */
const FILLER =
  /^(?:a|an|the|this|that|it|its|she|he|they|her|his|their|model|product|item|garment|dress|shirt|top|outfit|piece|video|clip|shot|please|is|are|of|in|on|at|to|for|from|by|very|slow|slowly|gentle|gently|soft|softly|smooth|smoothly|subtle|subtly|calm|calmly|steady|loop|loops|looping|loopable|seamless|seamlessly|perfect|perfectly|continuous|back|forth|again|around|round|left|right|up|down|degrees?)$/;
/** Where a prompt's phrases part: punctuation and the words that join two actions. */
const PHRASE_BREAK = /\s*(?:[,;.!?]|\band\b|\bthen\b|\bwhile\b|\bwith\b|\bbut\b)\s*/i;

export interface MotionReading {
  /** The preset the prompt selects; undefined when none of its words names a motion the engine makes. */
  preset: MotionPreset | undefined;
  /** The prompt's phrases the preset renders, as written. */
  followed: string[];
  /** The phrases it does not render, as written: other motions, gestures, expressions, anything else asked for. */
  notRendered: string[];
}

const hitsOf = (text: string, preset: MotionPreset) => MOTION_KEYWORDS[preset].filter((keyword) => new RegExp(`\\b${keyword}`).test(text)).length;

/**
 * What the engine makes of a motion prompt: the preset whose keywords occur most often (ties go to the earlier preset
 * of MOTION_KEYWORDS; a preset's own name selects it), the phrases that preset renders, and the rest, each phrase whole.
 */
export function readMotionPrompt(prompt: string): MotionReading {
  const text = prompt.trim().toLowerCase();
  const presets = Object.keys(MOTION_KEYWORDS) as MotionPreset[];
  const named = presets.find((preset) => preset.toLowerCase() === text);
  if (named) return { preset: named, followed: [prompt.trim()], notRendered: [] };
  let preset: MotionPreset | undefined;
  let bestHits = 0;
  for (const candidate of presets) {
    const hits = hitsOf(text, candidate);
    if (hits > bestHits) [preset, bestHits] = [candidate, hits];
  }
  const phrases = prompt
    .split(PHRASE_BREAK)
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase.toLowerCase().split(/[^a-z0-9'-]+/).some((word) => word !== '' && !FILLER.test(word)));
  const followed = preset ? phrases.filter((phrase) => hitsOf(phrase.toLowerCase(), preset) > 0) : [];
  return { preset, followed, notRendered: phrases.filter((phrase) => !followed.includes(phrase)) };
}

/** The preset a prompt selects; Pivot when it names none (the generate route refuses such a prompt before any charge). */
export function presetForPrompt(prompt: string): MotionPreset {
  return readMotionPrompt(prompt).preset ?? 'Pivot';
}
