/**
 * The facts a question can ask of a listing, their answers as the record page prints them, and
 * how lookalike listings are kept from sharing the asked value (so an answer read off the wrong
 * listing is always wrong).
 */
import type { Rng } from '../../../common/rng.ts';
import { DAY_NAMES, clockTime } from './hours.ts';
import type { Category, FactAsk, FactKey, Listing } from './data.ts';
import type { ListingMaker } from './site.ts';

export const FACT_KEYS: FactKey[] = ['phone', 'address', 'contact', 'opens', 'closes', 'numeric'];

/** The value the checker wants, or null when the listing has none (closed on that day). */
export function factAnswer(l: Listing, fact: FactKey, day = 0): string | null {
  switch (fact) {
    case 'phone':
      return l.phone;
    case 'address':
      return l.street;
    case 'contact':
      return l.contact;
    case 'numeric':
      return l.numeric.toLocaleString('en-US');
    case 'opens':
    case 'closes': {
      const h = l.hours[day];
      return h ? clockTime(fact === 'opens' ? h[0] : h[1]) : null;
    }
  }
}

export function factLabel(category: Category, fact: FactKey, day = 0): string {
  switch (fact) {
    case 'phone':
      return 'phone number';
    case 'address':
      return 'street address';
    case 'contact':
      return 'contact person';
    case 'numeric':
      return category.numericLabel.toLowerCase();
    case 'opens':
      return `opening time on ${DAY_NAMES[day]}s`;
    case 'closes':
      return `closing time on ${DAY_NAMES[day]}s`;
  }
}

/**
 * A fact to ask of `l`: any of the six, an opening or closing time only for a day it is open and
 * not in `avoidDays` (days a ranking's filters depend on, which must not change afterwards).
 */
export function pickFact(rng: Rng, l: Listing, category: Category, avoidDays: number[] = []): FactAsk {
  const days = l.hours.map((h, d) => (h && !avoidDays.includes(d) ? d : -1)).filter((d) => d >= 0);
  const keys = FACT_KEYS.filter((k) => (k !== 'opens' && k !== 'closes') || days.length > 0);
  const fact = rng.pick(keys);
  const day = fact === 'opens' || fact === 'closes' ? rng.pick(days) : undefined;
  return { fact, ...(day === undefined ? {} : { day }), label: factLabel(category, fact, day), answer: factAnswer(l, fact, day)! };
}

/** Changes each of `others` whose value of the asked fact equals the answer, so none shares it. */
export function distinguish(rng: Rng, maker: ListingMaker, ask: FactAsk, others: Listing[]): void {
  for (const o of others) {
    for (let tries = 0; tries < 20 && factAnswer(o, ask.fact, ask.day) === ask.answer; tries++) {
      if (ask.fact === 'address') o.street = maker.street();
      else if (ask.fact === 'contact') o.contact = maker.person();
      else if (ask.fact === 'numeric') o.numeric += rng.int(1, 9);
      else if (ask.fact === 'opens') o.hours[ask.day!]![0] -= 30;
      else if (ask.fact === 'closes') o.hours[ask.day!]![1] += 60;
    }
  }
}
