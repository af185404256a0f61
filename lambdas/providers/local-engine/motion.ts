// The motion presets as periodic functions of time. A clip holds a whole number of cycles, so frame N would equal
// frame 0 and the loop is exact. Every term is an even function of the phase (built from cosines), so each motion
// turns around at the seam: the step from the last frame to the first is the smallest step of the clip.
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
  /** `phase`: one cycle = 2π; `clipPhase`: the whole clip = 2π; `style`: the output's variant of the preset. */
  pose(phase: number, clipPhase: number, style: MotionStyle): Pose;
}

/**
 * How one output of a job varies its preset, so that N outputs are N different videos. Only signs, amplitudes and
 * whole-number cycle counts change: every term stays an even, periodic function of the phase, so each variant is
 * still an exact loop that turns around at the seam.
 */
export interface MotionStyle {
  /** 1 or −1: the swing, sway or turn starts the other way (a turntable starts from the back). */
  direction: 1 | -1;
  /** Multiplies the swing (1 = the preset as designed; smaller only, so the picture's margins still cover it). */
  amplitude: number;
  /** Multiplies the cycles in the clip (a whole number: a faster rock, stride or turn). */
  tempo: number;
}

/**
 * The variant of output `index` (0-based): 0 is the preset as designed; 1 mirrors it; 2 and 3 are a quicker,
 * smaller version of each; 4 and 5 quicker still. Deterministic, so a retried output renders the same file.
 */
export function motionStyle(index: number): MotionStyle {
  const step = Math.floor(index / 2);
  return { direction: index % 2 === 0 ? 1 : -1, amplitude: step === 0 ? 1 : 0.6, tempo: 1 + step };
}

const PRESET_STYLE: MotionStyle = motionStyle(0);

const DEGREE = Math.PI / 180;

export const MOTIONS: Readonly<Record<MotionPreset, Motion>> = {
  // Rocks on its base like a model shifting weight (±3.5°), easing in a little (6%) at each end of the swing.
  Pivot: {
    secondsPerCycle: 4,
    anchor: { x: 0.5, y: 1 },
    pose(phase, _clipPhase, { direction, amplitude }) {
      const zoom = 1.03 + 0.03 * amplitude * Math.cos(2 * phase);
      return { scaleX: zoom, scaleY: zoom, rotation: direction * amplitude * 3.5 * DEGREE * Math.cos(phase), shiftX: 0, shiftY: 0 };
    },
  },
  // A stride cycle (two steps): hips sway sideways (±2.5% of the width, ±1.5°) once per cycle, the body bobs
  // (1.2% of the height) at every step, and the whole clip walks in towards the camera (up to 6%) and back.
  Catwalk: {
    secondsPerCycle: 2,
    anchor: { x: 0.5, y: 0.5 },
    pose(phase, clipPhase, { direction, amplitude }) {
      const zoom = 1.03 - 0.03 * Math.cos(clipPhase);
      return {
        scaleX: zoom,
        scaleY: zoom,
        rotation: direction * amplitude * 1.5 * DEGREE * Math.cos(phase),
        shiftX: direction * amplitude * 0.025 * Math.cos(phase),
        shiftY: -0.012 * amplitude * Math.cos(2 * phase),
      };
    },
  },
  // A turntable about the product's own upright axis: the width follows cos(angle), never narrower than a side view
  // (a flat cut-out edge-on would vanish and leave an empty frame), and its sign mirrors the product for the back half
  // of the turn.
  '360 Spin': {
    secondsPerCycle: 8,
    anchor: { x: 0.5, y: 0.5 },
    pose(phase, _clipPhase, { direction }) {
      const cos = Math.cos(phase);
      const width = SPIN_SIDE_WIDTH + (1 - SPIN_SIDE_WIDTH) * Math.abs(cos);
      return { scaleX: direction * (cos >= 0 ? 1 : -1) * width, scaleY: 1, rotation: 0, shiftX: 0, shiftY: 0 };
    },
  },
};

/** 360 Spin's width edge-on, as a share of its width facing the camera: a product seen from the side. */
export const SPIN_SIDE_WIDTH = 0.22;

/** The largest zoom any preset reaches: the product layer is prepared at this size so motion never enlarges it. */
export const MAX_MOTION_ZOOM = 1.06;

/** Cycles of a preset in a clip of this length (times the variant's tempo). */
export function cyclesIn(preset: MotionPreset, durationSeconds: number, style: MotionStyle = PRESET_STYLE): number {
  return Math.max(1, Math.round(durationSeconds / MOTIONS[preset].secondsPerCycle)) * style.tempo;
}

/** The pose of frame `frame` of `frameCount`; frame `frameCount` would be frame 0 again. */
export function poseAt(preset: MotionPreset, frame: number, frameCount: number, cycles: number, style: MotionStyle = PRESET_STYLE): Pose {
  const clipPhase = (2 * Math.PI * frame) / frameCount;
  return MOTIONS[preset].pose(clipPhase * cycles, clipPhase, style);
}

/**
 * How a custom motion prompt maps to a preset: the preset whose keywords occur most often (ties go to the earlier
 * preset in this table); Pivot when none occurs. A preset's own name selects it directly.
 */
export const MOTION_KEYWORDS: Readonly<Record<MotionPreset, readonly string[]>> = {
  Pivot: ['pivot', 'tilt', 'lean', 'rock', 'sway gently', 'pose', 'zoom', 'shift weight'],
  Catwalk: ['catwalk', 'walk', 'runway', 'strut', 'stride', 'step', 'stroll', 'sway', 'bounce', 'bob', 'march', 'hips'],
  '360 Spin': ['360', 'spin', 'rotate', 'rotation', 'rotating', 'turn around', 'turning', 'turntable', 'revolve', 'orbit', 'twirl'],
};

export function presetForPrompt(prompt: string): MotionPreset {
  const text = prompt.trim().toLowerCase();
  const presets = Object.keys(MOTION_KEYWORDS) as MotionPreset[];
  const named = presets.find((preset) => preset.toLowerCase() === text);
  if (named) return named;
  let best: MotionPreset = 'Pivot';
  let bestHits = 0;
  for (const preset of presets) {
    // A keyword matches at a word start, with any ending: 'walk' matches 'walks' and 'walking'.
    const hits = MOTION_KEYWORDS[preset].filter((keyword) => new RegExp(`\\b${keyword}`).test(text)).length;
    if (hits > bestHits) [best, bestHits] = [preset, hits];
  }
  return best;
}
