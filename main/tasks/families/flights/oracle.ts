/**
 * The flight oracle: a state machine on the URL path and the page's controls. Every control is
 * found by the name this instance gave it (the variant's words in the state), never by a fixed
 * label, and form fields are filled in the order the page shows them.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded, startsWith } from '../common/oracle.ts';
import { airportLabel, flightsFor, hhmm, priceFor, type FlightsGoal } from './data.ts';
import { longDate, parseDate } from '../common/dates.ts';
import type { Ctx } from './chrome.ts';
import { nameLabel, selectFlightLabel, sortLabel, type SearchField } from './variant.ts';

type Turn = AgentTurn | null;

export class FlightsOracle extends OracleAgent {
  readonly name = 'oracle:flights';
  protected override readonly overlay = 'A cookie banner';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get w() {
    return this.ctx.state.variant.words;
  }

  protected decide(obs: Observation): AgentTurn {
    const g = this.ctx.state.goal;
    const { path, query } = instancePath(obs.url);
    const bm = path.match(/^\/booking\/([A-Z0-9]+)$/);
    if (bm) return { thought: 'The booking is confirmed.', action: act.say(`Booked flight ${g.flight}; confirmation code ${bm[1]}.`) };
    return (
      this.passengers(obs, path, g) ??
      this.results(obs, path, query, g) ??
      this.search(obs, g) ?? { thought: 'Unexpected page; go to the search form.', action: act.goto(this.ctx.baseUrl + '/') }
    );
  }

  /** The passenger form: back out of a wrong draft, else enter every name and confirm. */
  private passengers(obs: Observation, path: string, g: FlightsGoal): Turn {
    const pm = path.match(/^\/passengers\/(\w+)$/);
    if (!pm) return null;
    const d = this.ctx.state.drafts.find((x) => x.id === pm[1]);
    if (d && (d.flight !== g.flight || d.date !== g.date || d.passengers !== g.passengers || d.fareClass !== g.fareClass)) {
      const back = find(obs, 'link', this.w.backToResults);
      if (back) return { thought: 'This is not the flight I want; go back.', action: act.click(back) };
    }
    for (let i = 0; i < g.names.length; i++) {
      for (const part of this.ctx.state.variant.nameFields) {
        const a = fillIfNeeded(obs, 'textbox', startsWith(nameLabel(this.w, part, i)), g.names[i][part]);
        if (a) return { thought: `Enter passenger ${i + 1}'s ${part} name.`, action: a };
      }
    }
    const ok = find(obs, 'button', this.w.confirm);
    return ok ? { thought: 'All passengers are entered; confirm.', action: act.click(ok) } : null;
  }

  private results(obs: Observation, path: string, query: URLSearchParams, g: FlightsGoal): Turn {
    if (path !== '/results') return null;
    const w = this.w;
    const right = query.get('from') === g.from && query.get('to') === g.to && parseDate(query.get('date') ?? '') === g.date && Number(query.get('passengers')) === g.passengers && query.get('class') === g.fareClass;
    if (!right) {
      const change = find(obs, 'link', w.changeSearch);
      return change ? { thought: 'These results are for a different search; change it.', action: act.click(change) } : null;
    }
    // Sorted and filtered as the criterion says, the flight is the first listed: a procedure a
    // policy can learn from what the page shows, where picking it from an unsorted list asks
    // it to compare prices it cannot see (the button names are clipped before the fare).
    const order = g.criterion === 'shortest' ? 'duration' : 'price';
    const nonstop = g.criterion === 'cheapest_nonstop';
    if (query.get('sort') !== order || (query.get('nonstop') === '1') !== nonstop) {
      const set = this.setFilters(obs, order, nonstop);
      if (set) return set;
    }
    const flight = flightsFor(this.ctx.seed, g.from, g.to, g.date).find((f) => f.number === g.flight)!;
    const sel = find(obs, 'button', selectFlightLabel(w, flight.number, hhmm(flight.depart), priceFor(flight, g.fareClass)));
    if (sel) return { thought: `Flight ${g.flight} is the one the task asks for; select it.`, action: act.click(sel) };
    // The target is hidden by a filter (e.g. nonstop only); clear it.
    const ns = find(obs, 'checkbox', w.nonstop);
    if (ns?.checked === true) return { thought: 'Clear the nonstop filter.', action: act.click(ns) };
    const upd = find(obs, 'button', w.update);
    return upd ? { thought: 'Refresh the results.', action: act.click(upd) } : null;
  }

  /** Set the sort and the nonstop filter, in the order the page shows them, then apply. */
  private setFilters(obs: Observation, order: 'price' | 'duration', nonstop: boolean): Turn {
    const w = this.w;
    for (const k of this.ctx.state.variant.filters) {
      if (k === 'sort') {
        const sort = selectIfNeeded(obs, w.sortBy, sortLabel(w, order), order);
        if (sort) return { thought: `Sort by ${order}.`, action: sort };
      } else {
        const ns = find(obs, 'checkbox', w.nonstop);
        if (ns && (ns.checked === true) !== nonstop) return { thought: nonstop ? 'Nonstop flights only.' : 'Clear the nonstop filter.', action: act.click(ns) };
      }
    }
    const upd = find(obs, 'button', w.update);
    return upd ? { thought: 'Update the results.', action: act.click(upd) } : null;
  }

  /** The search form: each field in the page's order, then search. */
  private search(obs: Observation, g: FlightsGoal): Turn {
    const w = this.w;
    const go = find(obs, 'button', w.searchButton);
    if (!go) return null;
    const step: Record<SearchField, () => [string, string | null]> = {
      from: () => [`Fly from ${airportLabel(g.from)}.`, selectIfNeeded(obs, w.from, airportLabel(g.from), g.from)],
      to: () => [`Fly to ${airportLabel(g.to)}.`, selectIfNeeded(obs, w.to, airportLabel(g.to), g.to)],
      date: () => this.date(obs, g),
      passengers: () => [`${g.passengers} passengers.`, fillIfNeeded(obs, 'spinbutton', w.passengers, String(g.passengers))],
      fareClass: () => [`Fare class ${g.fareClass}.`, selectIfNeeded(obs, w.fareClass, g.fareClass)],
    };
    for (const k of this.ctx.state.variant.searchFields) {
      const [thought, a] = step[k]();
      if (a) return { thought, action: a };
    }
    return { thought: 'Search.', action: act.click(go) };
  }

  /** Use the calendar when it shows the right month (on the two-passenger tier), else type the date. */
  private date(obs: Observation, g: FlightsGoal): [string, string | null] {
    const date = find(obs, 'textbox', this.w.date);
    if (!date || parseDate(date.value ?? '') === g.date) return ['The date is set.', null];
    const day = find(obs, 'button', longDate(g.date));
    if (day && g.passengers > 1) return [`Pick ${longDate(g.date)} in the calendar.`, act.click(day)];
    return ['Type the departure date.', act.fill(date, g.date)];
  }
}
