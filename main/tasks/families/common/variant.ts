/**
 * Per-instance presentation for the built-in sites: each instance draws its labels from synonyms,
 * its order of navigation, sections and fields, one to three distractors and a layout, so that
 * ids, order and words stop identifying the answer to a policy trained on the sites. The draw
 * uses its own stream of the seed (`mixSeed(seed, '<family>-variant')`), never the stream that
 * builds the task's content, so every seed keeps its goal, data and checker; only how the site
 * looks and words itself changes. Pages and oracles read the chosen words from the instance state.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';

/** A table of synonyms per label; one is drawn per instance. */
export type Wording = Readonly<Record<string, readonly string[]>>;
export type WordsOf<W extends Wording> = { [K in keyof W]: string };

/** The presentation stream of a family's seed: independent of the stream that builds its content. */
export function variantRng(seed: number, family: string): Rng {
  return new Rng(mixSeed(seed, `${family}-variant`));
}

/** One synonym per label. */
export function drawWords<W extends Wording>(rng: Rng, wording: W): WordsOf<W> {
  return Object.fromEntries(Object.entries(wording).map(([key, options]) => [key, rng.pick(options)])) as WordsOf<W>;
}

/**
 * The cookie banner's words. The first of each list is what the banner said before it varied (and
 * still says on the held-out families, which call it without words).
 */
export const COOKIE_WORDING = {
  cookieText: [
    'We use cookies to improve your experience and to show you personalised offers.',
    'This site uses cookies for analytics and personalised content.',
    'Cookies help us run this site and tailor what you see.',
    'We and our partners store cookies on your device.',
  ],
  cookieAccept: ['Accept all cookies', 'Accept all', 'Allow cookies', 'I agree'],
  cookieReject: ['Reject non-essential', 'Only necessary cookies', 'Decline optional cookies', 'Essential only'],
} as const;
export type CookieWords = WordsOf<typeof COOKIE_WORDING>;
export const DEFAULT_COOKIE_WORDS: CookieWords = { cookieText: COOKIE_WORDING.cookieText[0], cookieAccept: COOKIE_WORDING.cookieAccept[0], cookieReject: COOKIE_WORDING.cookieReject[0] };

/** Every button name that closes a cookie banner, on any instance (oracles dismiss by these). */
export const COOKIE_BUTTONS: readonly string[] = [...COOKIE_WORDING.cookieAccept, ...COOKIE_WORDING.cookieReject];

/** A label template with its {slots} filled in; the data goes in verbatim ("Remove {name}"). A slot without data stays as written. */
export function fill(template: string, data: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in data ? String(data[key]) : whole));
}

/** A region's own items, always shown, and the distractors it may get. */
export interface Slots<T> {
  core: readonly T[];
  extra: readonly T[];
}

/**
 * One to three distractors drawn from the navigation's and the home page's pools together, each
 * region then shuffled with its own items and the distractors it got.
 */
export function placeDistractors<N, S>(rng: Rng, nav: Slots<N>, sections: Slots<S>): { nav: N[]; sections: S[] } {
  const chosen = rng.sample<N | S>([...nav.extra, ...sections.extra], rng.int(1, 3));
  return {
    nav: rng.shuffle([...nav.core, ...nav.extra.filter((k) => chosen.includes(k))]),
    sections: rng.shuffle([...sections.core, ...sections.extra.filter((k) => chosen.includes(k))]),
  };
}
