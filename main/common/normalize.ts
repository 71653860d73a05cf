/**
 * Answer normalisation for information-seeking tasks: a correct answer should be accepted however
 * the agent phrases its number or casing ("1,299.00" vs "$1299", "ABC-123" vs "abc-123").
 */

/** Lowercase, strip diacritics-insensitive spacing, collapse whitespace, drop edge punctuation. */
export function normalizeText(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'`(\[]+|["'`)\].,;:!?]+$/g, '')
    .trim();
}

/** "$1,299.00" -> 1299, "12.5" -> 12.5; null when the text is not a single number. */
export function parseNumber(s: string): number | null {
  const t = s.trim().replace(/^[$€£]|[$€£]$/g, '').replace(/^(usd|eur)\s*/i, '').trim();
  if (!/^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(t)) return null;
  return Number(t.replace(/,/g, ''));
}

/** Every number-like token in a text, e.g. "it was $1,299.00 total" -> [1299]. */
export function numbersIn(s: string): number[] {
  const out: number[] = [];
  for (const m of s.matchAll(/[$€£]?\d[\d,]*(\.\d+)?/g)) {
    const n = parseNumber(m[0].replace(/[.,]$/, ''));
    if (n !== null) out.push(n);
  }
  return out;
}

function tokens(s: string): string[] {
  return normalizeText(s)
    .split(/[^a-z0-9\-]+/)
    .filter(Boolean);
}

/**
 * Does `message` give `expected`? Numbers compare by value; text compares as a whole normalised
 * string or as a contiguous run of tokens inside a longer sentence ("The code is QX-4417.").
 */
export function answerMatches(expected: string, message: string): boolean {
  const n = parseNumber(expected);
  if (n !== null) return numbersIn(message).some((x) => Math.abs(x - n) < 1e-9);
  const e = normalizeText(expected);
  const m = normalizeText(message);
  if (!e) return false;
  if (e === m) return true;
  const et = tokens(expected);
  const mt = tokens(message);
  for (let i = 0; i + et.length <= mt.length; i++) {
    if (et.every((t, j) => mt[i + j] === t)) return true;
  }
  return false;
}

/** Compare names and short free text (form values) loosely: case and spacing do not matter. */
export function sameText(a: string | undefined, b: string | undefined): boolean {
  return normalizeText(a ?? '') === normalizeText(b ?? '');
}
