/** The restaurant oracle: a state machine on the URL path and the page's controls. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { parseDate } from '../common/dates.ts';
import { timeLabel } from './data.ts';
import { partyLabel, type Ctx } from './pages.ts';

export class RestaurantsOracle extends OracleAgent {
  readonly name = 'oracle:restaurants';
  protected override readonly overlay = 'An offer dialog';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const r = s.restaurants.find((x) => x.id === g.restaurant)!;
    const { path, query } = instancePath(obs.url);

    // A membership taken by mistake is undone first.
    if (s.promo.joined) {
      const cancel = find(obs, 'button', 'Cancel membership');
      if (cancel) return { thought: 'Cancel the membership that was taken by mistake.', action: act.click(cancel) };
      const account = find(obs, 'link', 'Account');
      if (account) return { thought: 'A membership was taken by mistake; open the account page.', action: act.click(account) };
    }

    const cm = path.match(/^\/reservation\/(\w+)$/);
    if (cm && g.kind === 'reserve') return { thought: 'The reservation is confirmed.', action: act.say(`Reserved ${r.name} on ${g.date} at ${timeLabel(g.time)} for ${g.party}; confirmation ${cm[1]}.`) };

    if (g.kind !== 'reserve' && path === `/restaurant/${r.id}`) {
      const text = g.kind === 'phone' ? `The phone number of ${r.name} is ${g.answer}.` : `The ${g.dish} at ${r.name} costs ${g.answer}.`;
      return { thought: text, action: act.say(text) };
    }

    if (g.kind === 'reserve') {
      if (path === '/reserve') {
        if (query.get('restaurant') !== String(r.id) || parseDate(query.get('date') ?? '') !== g.date || query.get('time') !== g.time || Number(query.get('party')) !== g.party) {
          const back = find(obs, 'link', /^Back to /);
          if (back) return { thought: 'This is not the table I want; go back.', action: act.click(back) };
        }
        const steps: Array<[string, string | null]> = [
          ['Enter the name.', fillIfNeeded(obs, 'textbox', 'Full name', g.name)],
          ['Enter the phone number.', fillIfNeeded(obs, 'textbox', 'Phone number', g.phone)],
        ];
        for (const [thought, a] of steps) if (a) return { thought, action: a };
        const ok = find(obs, 'button', 'Complete reservation');
        if (ok) return { thought: 'Complete the reservation.', action: act.click(ok) };
      }
      if (path === `/restaurant/${r.id}`) {
        if (parseDate(query.get('date') ?? '') === g.date && Number(query.get('party')) === g.party) {
          const slot = find(obs, 'button', `Reserve ${timeLabel(g.time)}`);
          if (slot) return { thought: `Take the ${timeLabel(g.time)} table.`, action: act.click(slot) };
        }
        const steps: Array<[string, string | null]> = [
          ['Enter the date.', fillIfNeeded(obs, 'textbox', 'Date', g.date)],
          [`Party of ${g.party}.`, selectIfNeeded(obs, 'Party size', partyLabel(g.party), String(g.party))],
        ];
        for (const [thought, a] of steps) if (a) return { thought, action: a };
        const go = find(obs, 'button', 'Find a table');
        if (go) return { thought: 'Look for tables.', action: act.click(go) };
      }
      if (path === '/search' && g.cuisine && g.area) {
        if (query.get('cuisine') !== g.cuisine || query.get('area') !== g.area || query.get('sort') !== 'rating') {
          const steps: Array<[string, string | null]> = [
            [`${g.cuisine} food.`, selectIfNeeded(obs, 'Cuisine', g.cuisine)],
            [`In ${g.area}.`, selectIfNeeded(obs, 'Neighborhood', g.area)],
            ['Best rated first.', selectIfNeeded(obs, 'Sort by', 'Highest rated', 'rating')],
          ];
          for (const [thought, a] of steps) if (a) return { thought, action: a };
          const apply = find(obs, 'button', 'Apply filters');
          if (apply) return { thought: 'Apply the filters.', action: act.click(apply) };
        }
      }
      if (g.cuisine && path === '/') {
        const all = find(obs, 'link', 'Browse all restaurants');
        if (all) return { thought: 'Browse the restaurants to filter them.', action: act.click(all) };
      }
    }

    const link = find(obs, 'link', r.name);
    if (link && !(g.kind === 'reserve' && g.cuisine && path !== '/search')) return { thought: `Open ${r.name}.`, action: act.click(link) };
    if (g.kind === 'reserve' && g.cuisine) return { thought: 'Go to the restaurant list.', action: act.goto(this.ctx.baseUrl + '/search') };
    const box = find(obs, ['searchbox', 'textbox'], 'Search restaurants');
    if (box) {
      if ((box.value ?? '').trim().toLowerCase() !== r.name.toLowerCase()) return { thought: `Search for ${r.name}.`, action: act.fill(box, r.name) };
      return { thought: 'Run the search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
