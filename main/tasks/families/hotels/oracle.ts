/** The hotel oracle: a state machine on the URL path and the page's controls. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { parseDate } from '../common/dates.ts';
import { STAR_OPTIONS, SORTS } from './query.ts';
import type { Ctx } from './pages.ts';
import { searchPath } from './task.ts';

export class HotelsOracle extends OracleAgent {
  readonly name = 'oracle:hotels';
  protected override readonly overlay = 'A cookie banner';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const { path, query } = instancePath(obs.url);
    const hotel = g.kind === 'cheapest' ? undefined : s.hotels.find((h) => h.id === g.hotel)!;
    const stay = s.search;
    const city = stay.city;
    const sameStay = (q: URLSearchParams) => parseDate(q.get('checkin') ?? '') === stay.checkin && parseDate(q.get('checkout') ?? '') === stay.checkout && Number(q.get('guests')) === stay.guests;

    const cm = path.match(/^\/confirmation\/(\w+)$/);
    if (cm && g.kind === 'book') return { thought: 'The booking is confirmed.', action: act.say(`Booked the ${hotel!.rooms.find((r) => r.id === g.room)!.name} at ${hotel!.name}; confirmation number ${cm[1]}.`) };

    if (g.kind === 'room_price' && path === `/hotel/${hotel!.id}`) {
      const r = hotel!.rooms.find((x) => x.id === g.room)!;
      return { thought: `The ${r.name} costs ${g.answer} per night.`, action: act.say(`The ${r.name} at ${hotel!.name} costs ${g.answer} per night.`) };
    }

    if (path === '/book' && g.kind === 'book') {
      if (query.get('hotel') !== String(g.hotel) || query.get('room') !== g.room || !sameStay(query)) {
        const back = find(obs, 'link', /^Back to /);
        if (back) return { thought: 'This is not the room I want; go back.', action: act.click(back) };
      }
      const steps: Array<[string, string | null]> = [
        ['Enter the first name.', fillIfNeeded(obs, 'textbox', 'First name', g.first)],
        ['Enter the last name.', fillIfNeeded(obs, 'textbox', 'Last name', g.last)],
        ['Enter the email.', fillIfNeeded(obs, 'textbox', 'Email', g.email)],
      ];
      for (const [thought, a] of steps) if (a) return { thought, action: a };
      const agree = find(obs, 'checkbox', 'I accept the cancellation policy');
      if (agree && agree.checked !== true) return { thought: 'Accept the cancellation policy.', action: act.click(agree) };
      const ok = find(obs, 'button', 'Confirm booking');
      if (ok) return { thought: 'Confirm the booking.', action: act.click(ok) };
    }

    const hm = path.match(/^\/hotel\/(\d+)$/);
    if (hm && g.kind === 'book' && hm[1] === String(g.hotel) && sameStay(query)) {
      const r = hotel!.rooms.find((x) => x.id === g.room)!;
      const b = find(obs, 'button', `Reserve ${r.name}`);
      if (b) return { thought: `Reserve the ${r.name}.`, action: act.click(b) };
    }

    if (path === '/search' && (query.get('city') ?? '').toLowerCase() === city.toLowerCase() && sameStay(query)) {
      if (g.kind === 'cheapest' || (g.kind === 'book' && g.minStars !== undefined)) {
        const minStars = g.kind === 'cheapest' ? g.minStars : g.minStars!;
        const starOpt = STAR_OPTIONS.find((o) => o.value === String(minStars))!;
        const wantBreakfast = g.kind === 'book' && !!g.breakfast;
        const applied = query.get('stars') === String(minStars) && query.get('sort') === 'price_asc' && (query.get('breakfast') === '1') === wantBreakfast;
        if (!applied) {
          const st = selectIfNeeded(obs, 'Minimum stars', starOpt.label, starOpt.value);
          if (st) return { thought: `Only hotels with ${minStars} stars or more.`, action: st };
          const bf = find(obs, 'checkbox', 'Free breakfast');
          if (bf && (bf.checked === true) !== wantBreakfast) return { thought: wantBreakfast ? 'Only hotels with free breakfast.' : 'Breakfast does not matter; clear that filter.', action: act.click(bf) };
          const sortOpt = SORTS.find((o) => o.value === 'price_asc')!;
          const so = selectIfNeeded(obs, 'Sort by', sortOpt.label, sortOpt.value);
          if (so) return { thought: 'Sort by price, lowest first.', action: so };
          const apply = find(obs, 'button', 'Apply filters');
          if (apply) return { thought: 'Apply the filters.', action: act.click(apply) };
        } else if (g.kind === 'cheapest') {
          return { thought: `The first result, ${g.answer}, is the cheapest.`, action: act.say(`The cheapest hotel with at least ${minStars} stars is ${g.answer}.`) };
        }
      }
      if (hotel) {
        const link = find(obs, 'link', hotel.name);
        if (link) return { thought: `Open ${hotel.name}.`, action: act.click(link) };
        const next = find(obs, 'link', 'Next page');
        if (next) return { thought: `${hotel.name} is not on this page; try the next one.`, action: act.click(next) };
        const p1 = find(obs, 'link', 'Page 1');
        if (p1) return { thought: 'Start again from the first page.', action: act.click(p1) };
      }
    }

    if (find(obs, 'button', 'Search hotels')) {
      const want = stay;
      {
        const steps: Array<[string, string | null]> = [
          [`Destination ${city}.`, fillIfNeeded(obs, 'textbox', 'Destination', city)],
          ['Type the check-in date.', fillIfNeeded(obs, 'textbox', 'Check-in date', want.checkin)],
          ['Type the check-out date.', fillIfNeeded(obs, 'textbox', 'Check-out date', want.checkout)],
          [`${want.guests} guests.`, fillIfNeeded(obs, 'spinbutton', 'Guests', String(want.guests))],
        ];
        for (const [thought, a] of steps) if (a) return { thought, action: a };
        return { thought: 'Search.', action: act.click(find(obs, 'button', 'Search hotels')!) };
      }
    }
    return { thought: 'Unexpected page; go back to the hotel search.', action: act.goto(this.ctx.baseUrl + searchPath(city, stay.checkin, stay.checkout, stay.guests)) };
  }
}
