// Maps a free-text edit instruction to one of the Stability edit services, or to nothing.
//
// Decision: only instructions whose meaning is unambiguous are sent to a provider; anything else is refused with
// a clear 'unsupported' message (the user is not charged for a guess). Inpaint is not offered: it needs a mask and
// the edit port receives only an image and an instruction, so there is no mask source (a mask painted in the web
// app would be the way to add it). Object removal without a mask is served by Search and Replace with an empty
// replacement ("remove the hat" → replace "hat" with "nothing, plain continuation of the surroundings").
//
//   "remove the background" / "transparent background"       → Remove Background
//   "replace X with Y" / "swap X for Y"                      → Search and Replace (search_prompt X, prompt Y)
//   "change|turn X to|into Y" (Y not a colour)               → Search and Replace
//   "change|turn X to|into <colour>" / "make X <colour>"     → Search and Recolor (select_prompt X, prompt "<colour> X")
//   "recolor|paint X <colour>"                               → Search and Recolor
//   "remove|erase|delete X"                                  → Search and Replace (X → surroundings)

export type EditOperation =
  | { kind: 'remove-background' }
  | { kind: 'search-replace'; searchPrompt: string; prompt: string }
  | { kind: 'search-recolor'; selectPrompt: string; prompt: string };

export const UNSUPPORTED_EDIT_MESSAGE =
  "This edit instruction isn't supported. Try 'replace the <item> with <new item>', 'make the <item> <colour>' or 'remove the background'.";

const COLOURS = new Set(
  (
    'black white grey gray silver red crimson maroon burgundy pink rose magenta purple violet lilac lavender ' +
    'blue navy cobalt teal turquoise cyan aqua green olive emerald mint lime khaki yellow mustard gold golden ' +
    'orange coral peach brown tan beige cream ivory camel chocolate charcoal nude champagne'
  ).split(' '),
);
const COLOUR_MODIFIERS = new Set(['light', 'dark', 'pale', 'bright', 'deep', 'pastel', 'neon', 'soft', 'muted', 'baby', 'royal', 'sky', 'hot', 'and', '-']);

const REMOVE_BACKGROUND = [
  /^(?:remove|delete|erase|cut out|take out|get rid of|drop) (?:the )?(?:background|backdrop|bg)$/,
  /^(?:make (?:the )?)?(?:background|backdrop|bg) transparent$/,
  /^(?:(?:with|give it|use) )?(?:a )?(?:transparent|no) (?:background|backdrop|bg)$/,
];
const REPLACE = /^(?:replace|swap|exchange) (?:the )?(.+?) (?:with|for|by) (.+)$/;
const CHANGE = /^(?:change|turn|transform|switch) (?:the )?(.+?) (?:into|to) (.+)$/;
const RECOLOUR = /^(?:make|colou?r|recolou?r|paint|dye) (?:the )?(.+)$/;
const REMOVE_OBJECT = /^(?:remove|erase|delete|get rid of|take away|take off) (?:the )?(.+)$/;

const ERASED = 'nothing, a seamless continuation of the surrounding background';

function normalise(instruction: string): string {
  return instruction
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:please|can you|could you)\s+/, '')
    .replace(/[.!]+$/, '')
    .replace(/\s+please$/, '')
    .trim();
}

function withoutArticle(text: string): string {
  return text.replace(/^(?:a|an|the)\s+/, '').trim();
}

function isColour(text: string): boolean {
  const words = withoutArticle(text).replace(/-/g, ' - ').split(' ').filter(Boolean);
  return words.some((word) => COLOURS.has(word)) && words.every((word) => COLOURS.has(word) || COLOUR_MODIFIERS.has(word));
}

/** "shirt dark blue" → item "shirt", colour "dark blue": the longest trailing run of words (up to 3) that is a colour. */
function splitTrailingColour(text: string): { item: string; colour: string } | null {
  const words = text.replace(/ in ([^ ]+(?: [^ ]+){0,2})$/, ' $1').split(' ');
  for (let count = Math.min(3, words.length - 1); count >= 1; count -= 1) {
    const colour = words.slice(-count).join(' ');
    if (isColour(colour)) return { item: words.slice(0, -count).join(' '), colour };
  }
  return null;
}

function recolor(item: string, colour: string): EditOperation {
  const selectPrompt = withoutArticle(item);
  return { kind: 'search-recolor', selectPrompt, prompt: `${withoutArticle(colour)} ${selectPrompt}` };
}

export function planEdit(instruction: string): EditOperation | null {
  const text = normalise(instruction);
  if (!text) return null;
  if (REMOVE_BACKGROUND.some((pattern) => pattern.test(text))) return { kind: 'remove-background' };

  const replace = REPLACE.exec(text);
  if (replace?.[1] && replace[2]) return { kind: 'search-replace', searchPrompt: replace[1], prompt: replace[2] };

  const change = CHANGE.exec(text);
  if (change?.[1] && change[2]) {
    return isColour(change[2]) ? recolor(change[1], change[2]) : { kind: 'search-replace', searchPrompt: change[1], prompt: change[2] };
  }

  const recolour = RECOLOUR.exec(text);
  const split = recolour?.[1] ? splitTrailingColour(recolour[1]) : null;
  if (split) return recolor(split.item, split.colour);

  const remove = REMOVE_OBJECT.exec(text);
  if (remove?.[1]) return { kind: 'search-replace', searchPrompt: remove[1], prompt: ERASED };

  return null;
}
