/**
 * The message vocabulary of a compact policy: the words its training targets write in messages and
 * typed text that do not come from the page. Guided decoding (./action-guide.ts) keeps every word
 * of a message to these and the prompt's, so a tiny model copies names and values instead of gluing
 * pieces of them into words no page holds.
 */
import { parseAction } from '../environment/actions.ts';

/** A word must be in at least this share of the training texts (and 3 of them) to count as the policy's own. */
const MIN_SHARE = 0.005;

/** Text written by an action of these kinds: what ActionGuide checks. */
function writtenText(action: string): string | null {
  try {
    const a = parseAction(action);
    return a.type === 'send_msg_to_user' || a.type === 'fill' ? a.text : null;
  } catch {
    return null;
  }
}

/**
 * Words (ASCII letters and digits, as the guide reads them) without digits that at least MIN_SHARE
 * of the training targets' texts hold, sorted. Names and values vary per task and stay rare; the
 * template words of answers ("The", "costs", "starts", "per") do not.
 */
export function messageVocabulary(actions: Iterable<string>): string[] {
  const count = new Map<string, number>();
  let texts = 0;
  for (const action of actions) {
    const text = writtenText(action);
    if (text === null) continue;
    texts++;
    for (const w of new Set(text.match(/[A-Za-z0-9]+/g) ?? [])) if (!/\d/.test(w)) count.set(w, (count.get(w) ?? 0) + 1);
  }
  const min = Math.max(3, Math.ceil(MIN_SHARE * texts));
  return [...count].filter(([, n]) => n >= min).map(([w]) => w).sort();
}
