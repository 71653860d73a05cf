/**
 * The real-estate oracle: a state machine on the URL path and the page's controls. Every control is
 * found by the name this instance gave it (the variant's words in the state), never by a fixed
 * label, and forms are filled in the order this site lays them out, so the oracle stays right
 * under every wording, order and layout.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded, startsWith } from '../common/oracle.ts';
import { timeLabel, type HomeGoal } from './data.ts';
import { NAV_PATHS, type Ctx } from './chrome.ts';
import { bedsLabel, type FilterKey, type TourField } from './variant.ts';

type TourGoal = Extract<HomeGoal, { kind: 'tour' }>;
type Turn = AgentTurn | null;

export class RealEstateOracle extends OracleAgent {
  readonly name = 'oracle:realestate';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get s() {
    return this.ctx.state;
  }

  private get w() {
    return this.ctx.state.variant.words;
  }

  protected decide(obs: Observation): AgentTurn {
    const g = this.s.goal;
    const h = this.s.homes.find((x) => x.id === g.home)!;
    const { path, query } = instancePath(obs.url);
    const label = `${h.address}, ${h.city}`;

    const unsave = this.unsaveStray(obs, path);
    if (unsave) return unsave;

    const tm = path.match(/^\/tour\/([\w-]+)$/);
    if (g.kind === 'tour' && tm && this.s.tours.some((t) => t.home === h.id)) return { thought: 'The tour is requested.', action: act.say(`Requested a tour of ${label}; reference ${tm[1]}.`) };

    if (path === `/home/${h.id}`) {
      if (g.kind === 'fact') return { thought: `The ${g.label} is ${g.answer}.`, action: act.say(`The ${g.label} of ${label} is ${g.answer}.`) };
      return this.fillTour(obs, g);
    }

    const ranked = g.kind === 'tour' && g.city !== undefined;
    if (ranked && path === '/homes' && (query.get('q') ?? '').toLowerCase() === g.city!.toLowerCase()) {
      if (query.get('type') !== g.type || query.get('beds') !== String(g.beds) || query.get('sort') !== 'price_asc') return this.filter(obs, g as TourGoal);
    }
    if (!ranked || path === '/homes') {
      const link = find(obs, 'link', label);
      if (link && (!ranked || query.get('sort') === 'price_asc')) return { thought: `Open ${label}.`, action: act.click(link) };
    }
    const box = find(obs, ['searchbox', 'textbox'], this.w.searchBox);
    if (box) {
      const want = ranked ? g.city! : h.address;
      if ((box.value ?? '').trim().toLowerCase() !== want.toLowerCase()) return { thought: `Search for ${want}.`, action: act.fill(box, want) };
      return { thought: 'Search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }

  /** A home saved by mistake (a detour) is unsaved on its page, reached through the saved list. */
  private unsaveStray(obs: Observation, path: string): Turn {
    const stray = this.s.saved[0];
    if (stray === undefined) return null;
    if (path === `/home/${stray}`) {
      const b = find(obs, 'button', this.w.unsaveHome);
      if (b) return { thought: 'This home was saved by mistake; unsave it.', action: act.click(b) };
    }
    const sh = this.s.homes.find((x) => x.id === stray)!;
    // The saved list's link carries a count: "Saved homes (1)".
    const link = path === NAV_PATHS.saved ? find(obs, 'link', `${sh.address}, ${sh.city}`) : find(obs, 'link', startsWith(`${this.w.navSaved} (`));
    if (link) return { thought: 'A home was saved by mistake; find it.', action: act.click(link) };
    return path === NAV_PATHS.saved ? null : { thought: 'A home was saved by mistake; open the saved list.', action: act.goto(this.ctx.baseUrl + NAV_PATHS.saved) };
  }

  /** The tour form, one field a step in this site's order, then the request. */
  private fillTour(obs: Observation, g: TourGoal): AgentTurn {
    const w = this.w;
    const step: Record<TourField, () => [string, string | null]> = {
      date: () => ['Tour date.', fillIfNeeded(obs, 'textbox', w.tourDate, g.date)],
      time: () => [`At ${timeLabel(g.time)}.`, selectIfNeeded(obs, w.tourTime, timeLabel(g.time), g.time)],
      name: () => ['My name.', fillIfNeeded(obs, 'textbox', w.yourName, g.name)],
      email: () => ['My email.', fillIfNeeded(obs, 'textbox', w.email, g.email)],
      phone: () => ['My phone.', fillIfNeeded(obs, 'textbox', w.phone, g.phone)],
    };
    for (const k of this.s.variant.tourFields) {
      const [thought, a] = step[k]();
      if (a) return { thought, action: a };
    }
    const b = find(obs, 'button', w.requestTour);
    return b ? { thought: 'Request the tour.', action: act.click(b) } : { thought: 'Reload the home.', action: act.goto(obs.url) };
  }

  /** The filters of a ranked search, one control a step in this site's order, then apply them. */
  private filter(obs: Observation, g: TourGoal): AgentTurn {
    const w = this.w;
    const step: Record<FilterKey, () => [string, string | null]> = {
      type: () => [`${g.type} only.`, selectIfNeeded(obs, w.filterType, g.type!, g.type!)],
      beds: () => [`${g.beds}+ bedrooms.`, selectIfNeeded(obs, w.filterBeds, bedsLabel(w, g.beds!), String(g.beds))],
      maxPrice: () => ['No price cap.', fillIfNeeded(obs, ['spinbutton', 'textbox'], w.filterMaxPrice, '')],
      sort: () => ['Cheapest first.', selectIfNeeded(obs, w.filterSort, w.sortPriceAsc, 'price_asc')],
    };
    for (const k of this.s.variant.filters) {
      const [thought, a] = step[k]();
      if (a) return { thought, action: a };
    }
    const b = find(obs, 'button', w.applyFilters);
    return b ? { thought: 'Apply the filters.', action: act.click(b) } : { thought: 'Reload the list.', action: act.goto(obs.url) };
  }
}
