/**
 * The message vocabulary of a compact policy: the words its training targets write in messages and
 * typed text that do not come from the page, and the check guided decoding (./action-guide.ts)
 * makes with them: every word of a message keeps to these and the prompt's, so a tiny model copies
 * names and values instead of gluing pieces of them into words no page holds.
 */
import { parseAction } from '../environment/actions.ts';

/** A word must be in at least this share of the training texts (and 3 of them) to count as the policy's own. */
const MIN_SHARE = 0.005;

/** Actions whose text argument keeps to the allowed words: the answer, and text typed into a field. */
export const WORD_CHECKED_ACTIONS: ReadonlySet<string> = new Set(['send_msg_to_user', 'fill']);
/** A word as the vocabulary and the guide read it: ASCII letters and digits (the guide reads bytes). */
const WORD = /[A-Za-z0-9]+/g;

/** Text written by an action the guide checks. */
function writtenText(action: string): string | null {
  try {
    const a = parseAction(action);
    return WORD_CHECKED_ACTIONS.has(a.type) && 'text' in a ? a.text : null;
  } catch {
    return null;
  }
}

/**
 * Words without digits that at least MIN_SHARE of the training targets' texts hold, sorted. Names
 * and values vary per task and stay rare; the template words of answers ("The", "costs",
 * "starts", "per") do not.
 */
export function messageVocabulary(actions: Iterable<string>): string[] {
  const count = new Map<string, number>();
  let texts = 0;
  for (const action of actions) {
    const text = writtenText(action);
    if (text === null) continue;
    texts++;
    for (const w of new Set(text.match(WORD) ?? [])) if (!/\d/.test(w)) count.set(w, (count.get(w) ?? 0) + 1);
  }
  const min = Math.max(3, Math.ceil(MIN_SHARE * texts));
  return [...count].filter(([, n]) => n >= min).map(([w]) => w).sort();
}

/**
 * A number with separators ("2,082,181", "259.80"). Its digit runs are words each, so the word rule
 * alone would let "1653.1653" through (seen held out: a policy copying "1653" ran on into a second
 * copy after the full stop); such a number must be one the prompt shows.
 */
const SEPARATED_NUMBER = /\d+(?:[.,]\d+)+/g;

/** The words a guided message may hold, whole and as prefixes of a word still being written. */
export interface AllowedWords {
  whole: Set<string>;
  prefixes: Set<string>;
  /** Numbers with separators the prompt shows (also without thousands separators), and their prefixes. */
  numbers: Set<string>;
  numberPrefixes: Set<string>;
}

/**
 * The words a message may hold: the prompt's (and its numbers without thousands separators, as
 * answers write them: "2,440" -> "2440") and the vocabulary's, with every prefix of each.
 */
export function allowedWords(prompt: string, vocabulary: readonly string[]): AllowedWords {
  const whole = new Set([...(prompt.match(WORD) ?? []), ...(prompt.match(/\d{1,3}(?:,\d{3})+/g) ?? []).map((n) => n.replace(/,/g, '')), ...vocabulary]);
  // As shown, without thousands separators, and without the cents ("$1,299.00" answered "$1,299").
  const shown = (prompt.match(SEPARATED_NUMBER) ?? []).flatMap((n) => [n, n.replace(/\.\d+$/, '')]);
  const numbers = new Set(shown.flatMap((n) => [n, n.replace(/,(?=\d{3})/g, '')]));
  return { whole, prefixes: prefixesOf(whole), numbers, numberPrefixes: prefixesOf(numbers) };
}

function prefixesOf(words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const w of words) for (let k = 1; k <= w.length; k++) out.add(w.slice(0, k));
  return out;
}

/**
 * Whether every word of `text` is allowed, and every number with separators is one the prompt
 * shows; with `open`, the last of each may still be growing into one.
 */
export function wordsAllowed(text: string, open: boolean, words: AllowedWords): boolean {
  for (const m of text.matchAll(WORD)) {
    const growing = open && m.index! + m[0].length === text.length;
    if (!(growing ? words.prefixes : words.whole).has(m[0])) return false;
  }
  for (const m of text.matchAll(SEPARATED_NUMBER)) {
    const growing = open && m.index! + m[0].length === text.length;
    if (!(growing ? words.numberPrefixes : words.numbers).has(m[0])) return false;
  }
  return true;
}
