/** The flight oracle: a state machine on the URL path and the page's controls. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded, startsWith } from '../common/oracle.ts';
import { airportLabel } from './data.ts';
import { longDate, parseDate } from '../common/dates.ts';
import { SORTS, type Ctx } from './pages-search.ts';

export class FlightsOracle extends OracleAgent {
  readonly name = 'oracle:flights';
  protected override readonly overlay = 'A cookie banner';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const { path, query } = instancePath(obs.url);

    const bm = path.match(/^\/booking\/([A-Z0-9]+)$/);
    if (bm) return { thought: 'The booking is confirmed.', action: act.say(`Booked flight ${g.flight}; confirmation code ${bm[1]}.`) };

    const pm = path.match(/^\/passengers\/(\w+)$/);
    if (pm) {
      const d = s.drafts.find((x) => x.id === pm[1]);
      if (d && (d.flight !== g.flight || d.date !== g.date || d.passengers !== g.passengers || d.fareClass !== g.fareClass)) {
        const back = find(obs, 'link', 'Back to results');
        if (back) return { thought: 'This is not the flight I want; go back.', action: act.click(back) };
      }
      for (let i = 0; i < g.names.length; i++) {
        const f = fillIfNeeded(obs, 'textbox', startsWith(`Passenger ${i + 1} first name`), g.names[i].first);
        if (f) return { thought: `Enter passenger ${i + 1}'s first name.`, action: f };
        const l = fillIfNeeded(obs, 'textbox', startsWith(`Passenger ${i + 1} last name`), g.names[i].last);
        if (l) return { thought: `Enter passenger ${i + 1}'s last name.`, action: l };
      }
      const ok = find(obs, 'button', 'Confirm booking');
      if (ok) return { thought: 'All passengers are entered; confirm.', action: act.click(ok) };
    }

    if (path === '/results') {
      const right =
        query.get('from') === g.from && query.get('to') === g.to && parseDate(query.get('date') ?? '') === g.date && Number(query.get('passengers')) === g.passengers && query.get('class') === g.fareClass;
      // Sorted and filtered as the criterion says, the flight is the first listed: a procedure a
      // policy can learn from what the page shows, where picking it from an unsorted list asks
      // it to compare prices it cannot see (the button names are clipped before the fare).
      const order = g.criterion === 'shortest' ? 'duration' : 'price';
      const nonstop = g.criterion === 'cheapest_nonstop';
      if (right && (query.get('sort') !== order || (query.get('nonstop') === '1') !== nonstop)) {
        const sort = selectIfNeeded(obs, 'Sort by', SORTS.find((x) => x.value === order)!.label, order);
        if (sort) return { thought: `Sort by ${order}.`, action: sort };
        const ns = find(obs, 'checkbox', 'Nonstop only');
        if (ns && (ns.checked === true) !== nonstop) return { thought: nonstop ? 'Nonstop flights only.' : 'Clear the nonstop filter.', action: act.click(ns) };
        const upd = find(obs, 'button', 'Update results');
        if (upd) return { thought: 'Update the results.', action: act.click(upd) };
      }
      const sel = find(obs, 'button', startsWith(`Select flight ${g.flight} `));
      if (right && sel) return { thought: `Flight ${g.flight} is the one the task asks for; select it.`, action: act.click(sel) };
      if (right) {
        // The target is hidden by a filter (e.g. nonstop only); clear it.
        const ns = find(obs, 'checkbox', 'Nonstop only');
        if (ns?.checked === true) return { thought: 'Clear the nonstop filter.', action: act.click(ns) };
        const upd = find(obs, 'button', 'Update results');
        if (upd) return { thought: 'Refresh the results.', action: act.click(upd) };
      }
      const change = find(obs, 'link', 'Change search');
      if (change) return { thought: 'These results are for a different search; change it.', action: act.click(change) };
    }

    if (find(obs, 'button', 'Search flights')) {
      const steps: Array<[string, string | null]> = [
        [`Fly from ${airportLabel(g.from)}.`, selectIfNeeded(obs, 'From', airportLabel(g.from), g.from)],
        [`Fly to ${airportLabel(g.to)}.`, selectIfNeeded(obs, 'To', airportLabel(g.to), g.to)],
      ];
      for (const [thought, a] of steps) if (a) return { thought, action: a };
      const date = find(obs, 'textbox', 'Departure date');
      if (date && parseDate(date.value ?? '') !== g.date) {
        // Use the calendar when it shows the right month, else type the date.
        const day = find(obs, 'button', longDate(g.date));
        if (day && g.passengers > 1) return { thought: `Pick ${longDate(g.date)} in the calendar.`, action: act.click(day) };
        return { thought: 'Type the departure date.', action: act.fill(date, g.date) };
      }
      const rest: Array<[string, string | null]> = [
        [`${g.passengers} passengers.`, fillIfNeeded(obs, 'spinbutton', 'Passengers', String(g.passengers))],
        [`Fare class ${g.fareClass}.`, selectIfNeeded(obs, 'Fare class', g.fareClass)],
      ];
      for (const [thought, a] of rest) if (a) return { thought, action: a };
      const go = find(obs, 'button', 'Search flights')!;
      return { thought: 'Search.', action: act.click(go) };
    }
    return { thought: 'Unexpected page; go to the search form.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
