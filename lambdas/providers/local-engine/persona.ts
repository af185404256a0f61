// What the preview engine can honour of a model description: skin tone and hair colour words tint its person-form,
// "sitting", "walking" or "standing" choose the pose silhouette, and the seed picks the hairstyle (so one persona is
// one form across angles and items). Everything else the description asks for is listed as not rendered.
import type { ModelPersona } from '../ports.js';
import type { Rgb } from './colours.js';

export type Pose = 'standing' | 'walking' | 'sitting';
export type Hairstyle = 'short' | 'long' | 'bun';

export interface PersonForm {
  skin: Rgb;
  hair: Rgb;
  pose: Pose;
  hairstyle: Hairstyle;
  /** What the description asks for that the engine did not render: its phrases of which it rendered nothing, whole. */
  notRendered: string[];
  /** The description without the words the form took (a colour left here is the wall's, not the hair's). */
  otherWords: string;
}

const hex = (value: string): Rgb => ({ r: parseInt(value.slice(1, 3), 16), g: parseInt(value.slice(3, 5), 16), b: parseInt(value.slice(5, 7), 16) });

/** The form's tone when the description names none: a neutral mannequin. */
const MANNEQUIN = hex('#d9cfc4');
const SKIN_TONES: ReadonlyArray<{ words: RegExp; colour: Rgb }> = [
  { words: /\b(?:very\s+)?(?:fair|pale|porcelain|light)(?:[-\s]skinned|\s+skin(?:\s+tone)?|\s+complexion)\b/, colour: hex('#f1d6c2') },
  { words: /\b(?:olive|medium|tan(?:ned)?|golden)(?:[-\s]skinned|\s+skin(?:\s+tone)?|\s+complexion)\b/, colour: hex('#c99b73') },
  { words: /\b(?:brown|dark|deep|ebony|black)(?:[-\s]skinned|\s+skin(?:\s+tone)?|\s+complexion)\b/, colour: hex('#7a4e33') },
];
const HAIR_COLOURS: ReadonlyArray<{ words: RegExp; colour: Rgb }> = [
  { words: /\b(?:blonde?|platinum|golden)(?:\s+hair(?:ed)?)?\b/, colour: hex('#e3c27a') },
  { words: /\b(?:red|ginger|auburn|copper)(?:[-\s]haired|\s+hair)\b|\bredhead\b/, colour: hex('#a8432a') },
  { words: /\b(?:brown|brunette|chestnut)(?:[-\s]haired|\s+hair)\b|\bbrunette\b/, colour: hex('#5b3a24') },
  { words: /\b(?:black|dark)(?:[-\s]haired|\s+hair)\b/, colour: hex('#1d1a19') },
  { words: /\b(?:grey|gray|silver|white)(?:[-\s]haired|\s+hair)\b/, colour: hex('#b9b6b2') },
];
const NO_HAIR_GIVEN = hex('#3a2a20');
const POSES: ReadonlyArray<{ words: RegExp; pose: Pose }> = [
  { words: /\b(?:sitting|seated|sits|sit)\b/, pose: 'sitting' },
  { words: /\b(?:walking|walks|striding|strolling|mid-stride|walk)\b/, pose: 'walking' },
  { words: /\b(?:standing|stands|stand)\b/, pose: 'standing' },
];
/** A backdrop colour the studio takes (on-model-image.ts): honoured, so not listed. */
const BACKDROP = /\b(?:in\s+front\s+of\s+)?(?:an?\s+)?[#\w-]+\s+(?:wall|backdrop|background|studio)\b/;
/** Words that ask for nothing by themselves. */
const FILLER = /^(?:a|an|the|model|person|with|and|in|on|wearing|who|is|of|photo|shot|picture|please)$/;
const HAIRSTYLES: readonly Hairstyle[] = ['short', 'long', 'bun'];

/** The person-form of a persona, and what of its description it leaves out. */
export function personForm(model: Pick<ModelPersona, 'description' | 'seed'>, injectedFault?: RegExp): PersonForm {
  const text = model.description.toLowerCase();
  const skin = SKIN_TONES.find(({ words }) => words.test(text))?.colour ?? MANNEQUIN;
  const hair = HAIR_COLOURS.find(({ words }) => words.test(text))?.colour ?? NO_HAIR_GIVEN;
  const pose = POSES.find(({ words }) => words.test(text))?.pose ?? 'standing';
  const formWords = [...SKIN_TONES, ...HAIR_COLOURS, ...POSES].map(({ words }) => words);
  let otherWords = text;
  for (const words of formWords) otherWords = otherWords.replace(new RegExp(words.source, 'g'), ' ');
  const honoured = [...formWords, BACKDROP];
  if (injectedFault) honoured.push(injectedFault);
  // Whole phrases or nothing: a phrase the form rendered part of (its skin tone, hair colour, pose or backdrop) is not
  // listed, and one it rendered none of is listed as written, never chopped into the words left over.
  const notRendered = model.description
    .split(/\s*(?:[,;.]|\band\b|\bwith\b)\s*/i)
    .map((phrase) => phrase.trim())
    .filter((phrase) => {
      const lower = phrase.toLowerCase();
      if (!lower.split(/\s+/).some((word) => word !== '' && !FILLER.test(word))) return false;
      return !honoured.some((words) => new RegExp(words.source).test(lower));
    });
  return { skin, hair, pose, hairstyle: HAIRSTYLES[Math.abs(model.seed) % HAIRSTYLES.length]!, notRendered, otherWords };
}
