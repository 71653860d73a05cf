/**
 * The hotel oracle: a state machine on the URL path and the page's controls. Every control is
 * found by the name this instance gave it (the variant's words in the state), never by a fixed
 * label, and forms are filled in the order the page lays them out. The cookie banner, in any of
 * its wordings, is closed first by the base class.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { parseDate } from '../common/dates.ts';
import type { Hotel, HotelsGoal } from './data.ts';
import type { Ctx } from './chrome.ts';
import { searchPath } from './task.ts';
import { say, sortLabel, starsLabel, type BookField, type FilterKey, type SearchField } from './variant.ts';

type Turn = AgentTurn | null;
type Book = Extract<HotelsGoal, { kind: 'book' }>;

export class HotelsOracle extends OracleAgent {
  readonly name = 'oracle:hotels';
  protected override readonly overlay = 'A cookie banner';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get s() {
    return this.ctx.state;
  }

  private get w() {
    return this.ctx.state.variant.words;
  }

  /** The hotel the goal names (none for "which is cheapest?"). */
  private get hotel(): Hotel | undefined {
    const g = this.s.goal;
    return g.kind === 'cheapest' ? undefined : this.s.hotels.find((h) => h.id === g.hotel);
  }

  /** Does a query describe the task's stay (dates and guests)? */
  private sameStay(q: URLSearchParams): boolean {
    const stay = this.s.search;
    return parseDate(q.get('checkin') ?? '') === stay.checkin && parseDate(q.get('checkout') ?? '') === stay.checkout && Number(q.get('guests')) === stay.guests;
  }

  protected decide(obs: Observation): AgentTurn {
    const g = this.s.goal;
    const { path, query } = instancePath(obs.url);
    const stay = this.s.search;
    return (
      this.finish(path) ??
      (path === '/book' && g.kind === 'book' ? this.bookForm(obs, query, g) : null) ??
      this.reserve(obs, path, query) ??
      (path === '/search' && (query.get('city') ?? '').toLowerCase() === stay.city.toLowerCase() && this.sameStay(query) ? this.results(obs, query) : null) ??
      this.search(obs) ?? { thought: 'Unexpected page; go back to the hotel search.', action: act.goto(this.ctx.baseUrl + searchPath(stay.city, stay.checkin, stay.checkout, stay.guests)) }
    );
  }

  /** The end: a booking confirmed, or the asked-for room price on its hotel's page. */
  private finish(path: string): Turn {
    const g = this.s.goal;
    const h = this.hotel;
    const cm = path.match(/^\/confirmation\/(\w+)$/);
    if (cm && g.kind === 'book') return { thought: 'The booking is confirmed.', action: act.say(`Booked the ${h!.rooms.find((r) => r.id === g.room)!.name} at ${h!.name}; confirmation number ${cm[1]}.`) };
    if (g.kind === 'room_price' && path === `/hotel/${h!.id}`) {
      const r = h!.rooms.find((x) => x.id === g.room)!;
      return { thought: `The ${r.name} costs ${g.answer} per night.`, action: act.say(`The ${r.name} at ${h!.name} costs ${g.answer} per night.`) };
    }
    return null;
  }

  /** The booking form: back out if it is for another room or stay, else fill it in the page's order and confirm. */
  private bookForm(obs: Observation, query: URLSearchParams, g: Book): Turn {
    const w = this.w;
    if (query.get('hotel') !== String(g.hotel) || query.get('room') !== g.room || !this.sameStay(query)) {
      const shown = this.s.hotels.find((h) => String(h.id) === query.get('hotel'));
      const back = shown ? find(obs, 'link', say(w.backToHotel, { hotel: shown.name })) : undefined;
      if (back) return { thought: 'This is not the room I want; go back.', action: act.click(back) };
    }
    const values: Record<Exclude<BookField, 'requests'>, [string, string]> = { first: [w.first, g.first], last: [w.last, g.last], email: [w.email, g.email] };
    for (const k of this.s.variant.bookFields) {
      if (k === 'requests') continue; // optional, and the task asks for none
      const [label, value] = values[k];
      const a = fillIfNeeded(obs, 'textbox', label, value);
      if (a) return { thought: `${label}: ${value}.`, action: a };
    }
    const agree = find(obs, 'checkbox', w.agree);
    if (agree && agree.checked !== true) return { thought: 'Accept the cancellation policy.', action: act.click(agree) };
    const ok = find(obs, 'button', w.confirm);
    return ok ? { thought: 'Confirm the booking.', action: act.click(ok) } : null;
  }

  /** On the wanted hotel's page for the task's stay: reserve the wanted room. */
  private reserve(obs: Observation, path: string, query: URLSearchParams): Turn {
    const g = this.s.goal;
    const hm = path.match(/^\/hotel\/(\d+)$/);
    if (!hm || g.kind !== 'book' || hm[1] !== String(g.hotel) || !this.sameStay(query)) return null;
    const r = this.hotel!.rooms.find((x) => x.id === g.room)!;
    const b = find(obs, 'button', say(this.w.reserve, { room: r.name }));
    return b ? { thought: `Reserve the ${r.name}.`, action: act.click(b) } : null;
  }

  /** Results for the task's search: filter and sort when the goal asks for the cheapest, then find the hotel. */
  private results(obs: Observation, query: URLSearchParams): Turn {
    const g = this.s.goal;
    const minStars = g.kind === 'cheapest' ? g.minStars : g.kind === 'book' ? g.minStars : undefined;
    if (minStars !== undefined) {
      const wantBreakfast = g.kind === 'book' && !!g.breakfast;
      const applied = query.get('stars') === String(minStars) && query.get('sort') === 'price_asc' && (query.get('breakfast') === '1') === wantBreakfast && !query.get('max_price');
      if (!applied) {
        const turn = this.filter(obs, String(minStars), wantBreakfast);
        if (turn) return turn;
      } else if (g.kind === 'cheapest') {
        return { thought: `The first result, ${g.answer}, is the cheapest.`, action: act.say(`The cheapest hotel with at least ${minStars} stars is ${g.answer}.`) };
      }
    }
    const h = this.hotel;
    if (!h) return null;
    const link = find(obs, 'link', h.name);
    if (link) return { thought: `Open ${h.name}.`, action: act.click(link) };
    const next = find(obs, 'link', this.w.nextPage);
    if (next) return { thought: `${h.name} is not on this page; try the next one.`, action: act.click(next) };
    const first = find(obs, 'link', say(this.w.pageN, { n: 1 }));
    return first ? { thought: 'Start again from the first page.', action: act.click(first) } : null;
  }

  /** Set the filters one control a step, in the page's order, then apply them. */
  private filter(obs: Observation, stars: string, breakfast: boolean): Turn {
    const w = this.w;
    const step: Record<FilterKey, () => [string, string | null]> = {
      stars: () => [`Only hotels with ${stars} stars or more.`, selectIfNeeded(obs, w.stars, starsLabel(w, stars), stars)],
      maxPrice: () => ['No price limit.', fillIfNeeded(obs, 'spinbutton', w.maxPrice, '')],
      breakfast: () => {
        const bf = find(obs, 'checkbox', w.breakfast);
        const flip = bf && (bf.checked === true) !== breakfast;
        return [breakfast ? 'Only hotels with free breakfast.' : 'Breakfast does not matter; clear that filter.', flip ? act.click(bf) : null];
      },
      sort: () => ['Sort by price, lowest first.', selectIfNeeded(obs, w.sort, sortLabel(w, 'price_asc'), 'price_asc')],
    };
    for (const k of this.s.variant.filters) {
      const [thought, a] = step[k]();
      if (a) return { thought, action: a };
    }
    const apply = find(obs, 'button', w.apply);
    return apply ? { thought: 'Apply the filters.', action: act.click(apply) } : null;
  }

  /** Any page with the search form: fill in the task's stay in the form's order, then search. */
  private search(obs: Observation): Turn {
    const w = this.w;
    const button = find(obs, 'button', w.search);
    if (!button) return null;
    const stay = this.s.search;
    const step: Record<SearchField, () => [string, string | null]> = {
      city: () => [`Destination ${stay.city}.`, fillIfNeeded(obs, 'textbox', w.destination, stay.city)],
      checkin: () => ['Type the check-in date.', fillIfNeeded(obs, 'textbox', w.checkin, stay.checkin)],
      checkout: () => ['Type the check-out date.', fillIfNeeded(obs, 'textbox', w.checkout, stay.checkout)],
      guests: () => [`${stay.guests} guests.`, fillIfNeeded(obs, 'spinbutton', w.guests, String(stay.guests))],
    };
    for (const k of this.s.variant.searchFields) {
      const [thought, a] = step[k]();
      if (a) return { thought, action: a };
    }
    return { thought: 'Search.', action: act.click(button) };
  }
}
