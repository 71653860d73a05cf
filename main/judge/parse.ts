/**
 * Reading the judge model's answers. Models wrap, bold, quote and reorder; these parsers accept
 * the usual variations and return null where an answer cannot be read, so a malformed answer is
 * recorded as such rather than guessed at or thrown.
 */

/** "Key Points:" followed by numbered or bulleted lines. */
export function parseKeyPoints(text: string): string[] | null {
  const at = text.search(/key\s*points?\s*[:：]/i);
  const body = at >= 0 ? text.slice(at).replace(/^[^:：]*[:：]/, '') : text;
  const points: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    const m = line.match(/^\s*(?:\d+\s*[.)]|[-*•])\s+(.+?)\s*$/);
    if (m) points.push(m[1].replace(/\*\*/g, '').trim());
  }
  return points.filter(Boolean).length ? points.filter(Boolean) : null;
}

/** "Score: 4" (the last one wins: a model may restate the scale first). */
export function parseScore(text: string): number | null {
  const all = [...text.matchAll(/score\s*(?:is)?\s*[:=]?\s*\**\s*\[?([1-5])(?:\s*\/\s*5)?\b/gi)];
  if (all.length) return Number(all.at(-1)![1]);
  const bare = text.trim().match(/^\**([1-5])\**\.?$/);
  return bare ? Number(bare[1]) : null;
}

export interface ParsedVerdict {
  status: 'success' | 'failure';
  reasons: string;
}

/** "Thoughts: ... Status: success|failure". Null when there is no status line, or two that disagree. */
export function parseVerdict(text: string): ParsedVerdict | null {
  const statuses = [...text.matchAll(/status\s*[:=]\s*\**\s*["'`]?\s*(success|failure|successful|failed|fail)\b/gi)].map((m) => (m[1].toLowerCase().startsWith('succ') ? 'success' : 'failure'));
  if (!statuses.length || new Set(statuses).size > 1) return null;
  const at = text.search(/thoughts?\s*[:=]/i);
  const stop = text.search(/status\s*[:=]/i);
  const reasons = (at >= 0 ? text.slice(at, stop > at ? stop : undefined).replace(/^thoughts?\s*[:=]\s*/i, '') : text.slice(0, Math.max(0, stop))).replace(/\*\*/g, '').trim();
  return { status: statuses[0] as ParsedVerdict['status'], reasons };
}
