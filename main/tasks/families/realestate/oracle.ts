/** The real-estate oracle: a state machine on the URL path and the page's controls. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { timeLabel } from './data.ts';
import type { Ctx } from './pages.ts';

export class RealEstateOracle extends OracleAgent {
  readonly name = 'oracle:realestate';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const h = s.homes.find((x) => x.id === g.home)!;
    const { path, query } = instancePath(obs.url);
    const label = `${h.address}, ${h.city}`;

    // A home saved by mistake is unsaved on its page.
    const stray = s.saved[0];
    if (stray !== undefined) {
      if (path === `/home/${stray}`) return { thought: 'This home was saved by mistake; unsave it.', action: act.click(find(obs, 'button', 'Unsave home')!) };
      const sh = s.homes.find((x) => x.id === stray)!;
      const link = path === '/saved' ? find(obs, 'link', `${sh.address}, ${sh.city}`) : find(obs, 'link', /^Saved homes/);
      if (link) return { thought: 'A home was saved by mistake; find it.', action: act.click(link) };
    }

    const tm = path.match(/^\/tour\/([\w-]+)$/);
    if (g.kind === 'tour' && tm && s.tours.some((t) => t.home === h.id)) return { thought: 'The tour is requested.', action: act.say(`Requested a tour of ${label}; reference ${tm[1]}.`) };

    if (path === `/home/${h.id}`) {
      if (g.kind === 'fact') return { thought: `The ${g.label} is ${g.answer}.`, action: act.say(`The ${g.label} of ${label} is ${g.answer}.`) };
      const steps: Array<[string, string | null]> = [
        ['Tour date.', fillIfNeeded(obs, 'textbox', 'Tour date', g.date)],
        [`At ${timeLabel(g.time)}.`, selectIfNeeded(obs, 'Tour time', timeLabel(g.time), g.time)],
        ['My name.', fillIfNeeded(obs, 'textbox', 'Your name', g.name)],
        ['My email.', fillIfNeeded(obs, 'textbox', 'Email', g.email)],
        ['My phone.', fillIfNeeded(obs, 'textbox', 'Phone', g.phone)],
      ];
      for (const [thought, a] of steps) if (a) return { thought, action: a };
      return { thought: 'Request the tour.', action: act.click(find(obs, 'button', 'Request tour')!) };
    }

    const ranked = g.kind === 'tour' && g.city !== undefined;
    if (ranked && path === '/homes' && (query.get('q') ?? '').toLowerCase() === g.city!.toLowerCase()) {
      if (query.get('type') !== g.type || query.get('beds') !== String(g.beds) || query.get('sort') !== 'price_asc') {
        const steps: Array<[string, string | null]> = [
          [`${g.type} only.`, selectIfNeeded(obs, 'Home type', g.type!)],
          [`${g.beds}+ bedrooms.`, selectIfNeeded(obs, 'Bedrooms', `${g.beds}+`, String(g.beds))],
          ['Cheapest first.', selectIfNeeded(obs, 'Sort by', 'Price (low to high)', 'price_asc')],
        ];
        for (const [thought, a] of steps) if (a) return { thought, action: a };
        return { thought: 'Apply the filters.', action: act.click(find(obs, 'button', 'Apply filters')!) };
      }
    }
    if (!ranked || path === '/homes') {
      const link = find(obs, 'link', label);
      if (link && (!ranked || query.get('sort') === 'price_asc')) return { thought: `Open ${label}.`, action: act.click(link) };
    }
    const box = find(obs, ['searchbox', 'textbox'], 'City, neighborhood or address');
    if (box) {
      const want = ranked ? g.city! : h.address;
      if ((box.value ?? '').trim().toLowerCase() !== want.toLowerCase()) return { thought: `Search for ${want}.`, action: act.fill(box, want) };
      return { thought: 'Search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
