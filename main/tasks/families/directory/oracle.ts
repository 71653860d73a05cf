/**
 * The directory oracle: a state machine on the URL path and the page's controls. Every control is
 * found by the words this instance uses (its Look) and every listing by its link text (name and
 * town), so the oracle is exact under every variation. A stray save or a newsletter sign-up left
 * by a detour is undone first.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { normalizeText, sameText } from '../../../common/normalize.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded, type NameMatch } from '../common/oracle.ts';
import { DAY_KEYS, DAY_NAMES, SATURDAY, SUNDAY } from './hours.ts';
import { dayCheckboxLabel, ratingLabel } from './look.ts';
import { parseListingQuery, queryParams, typeSlug } from './query.ts';
import { categoryOf, listingById, listingLabel, subOf, townOf, type DirectoryGoal, type Listing, type ListingQuery } from './data.ts';
import { straySaves } from './check.ts';
import type { Ctx } from './chrome.ts';

type Turn = AgentTurn | null;
const turn = (thought: string, action: string | null | undefined): Turn => (action ? { thought, action } : null);
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

export class DirectoryOracle extends OracleAgent {
  readonly name = 'oracle:directory';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get s() {
    return this.ctx.state;
  }
  private get w() {
    return this.ctx.state.look.words;
  }

  protected decide(obs: Observation): AgentTurn {
    return this.closeOverlay(obs) ?? this.undoDetours(obs) ?? this.pursue(obs, this.s.goal) ?? this.home(obs);
  }

  private click(obs: Observation, role: string, name: NameMatch): string | null {
    const el = find(obs, role, name);
    return el ? act.click(el) : null;
  }

  private label(l: Listing): string {
    return listingLabel(this.s, l);
  }

  /** The cookie banner or newsletter dialog, closed by its own "no" button. */
  private closeOverlay(obs: Observation): Turn {
    if (this.s.look.overlay === 'none' || this.s.ui.cookiesDismissed) return null;
    return turn('An overlay covers the page; close it without signing up.', this.click(obs, 'button', this.w.dismiss));
  }

  /** A newsletter sign-up, or a listing saved or removed that the goal did not ask for, is put back. */
  private undoDetours(obs: Observation): Turn {
    const s = this.s;
    const { path } = instancePath(obs.url);
    if (s.newsletter) {
      if (path === '/help') return turn('I signed up for the newsletter by mistake; unsubscribe.', this.click(obs, 'button', 'Unsubscribe from the newsletter'));
      return turn('The help page has the unsubscribe button.', act.goto(`${this.ctx.baseUrl}/help`));
    }
    const [id] = straySaves(s);
    if (id === undefined) return null;
    const l = listingById(s, id)!;
    const was = s.initial.saved.find((e) => e.id === id);
    if (!was) {
      if (path === '/saved') return turn(`Remove ${this.label(l)}, saved by mistake.`, this.click(obs, 'button', `${this.w.remove} ${this.label(l)}`));
      return turn('A listing was saved by mistake; open the saved list.', act.goto(`${this.ctx.baseUrl}/saved`));
    }
    if (path !== `/place/${id}`) return turn('A saved listing was removed by mistake; open it again.', act.goto(`${this.ctx.baseUrl}/place/${id}`));
    return turn('Put its note back.', fillIfNeeded(obs, 'textbox', this.w.noteField, was.note)) ?? turn('Save it again.', this.click(obs, 'button', this.w.save));
  }

  private pursue(obs: Observation, g: DirectoryGoal): Turn {
    const s = this.s;
    const { path } = instancePath(obs.url);
    const l = listingById(s, g.listing)!;
    const onRecord = path === `/place/${l.id}`;
    if (g.kind === 'fact' || g.kind === 'ranked') {
      if (onRecord) return turn(`The page gives the ${g.label}: ${g.answer}.`, act.say(`${cap(g.label)} of ${l.name} in ${townOf(s, l.town)!.name}: ${g.answer}.`));
      if (g.kind === 'ranked') return g.route === 'search' ? this.rankBySearch(obs, g) : this.rankOnListing(obs, g);
      return g.route === 'picks' ? this.viaPicks(obs, l) : this.viaListing(obs, l);
    }
    if (g.kind === 'contact') {
      if (s.sent.some((m) => m.id === l.id)) return turn('The message is sent.', act.say(`Sent ${this.label(l)} the message about "${g.topic}".`));
      if (onRecord) {
        const steps: Array<[string, string | null]> = [
          [`Topic: ${g.topic}.`, selectIfNeeded(obs, this.w.topicField, g.topic)],
          ['The message.', fillIfNeeded(obs, 'textbox', this.w.messageField, g.text)],
        ];
        for (const [thought, a] of steps) if (a) return { thought, action: a };
        return turn('Send it.', this.click(obs, 'button', this.w.contactButton));
      }
    } else {
      const entry = s.saved.find((e) => e.id === l.id);
      if (entry && sameText(entry.note, g.note)) return turn('Saved with the note.', act.say(`Saved ${this.label(l)} with the note "${g.note}".`));
      if (onRecord) {
        if (entry) return turn('Saved with another note; remove it and save again.', this.click(obs, 'button', this.w.remove));
        return turn('The note.', fillIfNeeded(obs, 'textbox', this.w.noteField, g.note)) ?? turn('Save it.', this.click(obs, 'button', this.w.save));
      }
    }
    return g.route === 'search' ? this.viaSearch(obs, l) : this.viaListing(obs, l);
  }

  /** Tier 1: the category page's picks link the listing. */
  private viaPicks(obs: Observation, l: Listing): Turn {
    const { path } = instancePath(obs.url);
    const c = categoryOf(this.s, l.category)!;
    if (path === `/c/${c.slug}`) return turn(`Open ${this.label(l)} from the picks.`, this.click(obs, 'link', this.label(l)));
    return turn(`Open the ${c.name} category.`, this.click(obs, 'link', c.name));
  }

  /** Category, subcategory, then the listing's page of the default order. */
  private viaListing(obs: Observation, l: Listing): Turn {
    const { path, query } = instancePath(obs.url);
    const c = categoryOf(this.s, l.category)!;
    const sub = subOf(this.s, l.category, l.sub)!;
    const listing = `/c/${c.slug}/${sub.slug}`;
    if (path === listing) {
      if ([...query.keys()].some((k) => k !== 'page')) return turn('Back to the unfiltered list.', act.goto(this.ctx.baseUrl + listing));
      return turn(`Open ${this.label(l)}.`, this.click(obs, 'link', this.label(l))) ?? turn('Not on this page; the next one.', this.click(obs, 'link', this.w.next));
    }
    if (path === `/c/${c.slug}`) return turn(`Open ${sub.name}.`, this.click(obs, 'link', sub.name));
    return turn(`Open the ${c.name} category.`, this.click(obs, 'link', c.name));
  }

  /** Search for the name; an exact, unique name opens the listing, else pick it by its town. */
  private viaSearch(obs: Observation, l: Listing): Turn {
    const { path, query } = instancePath(obs.url);
    if (path === '/search' && sameText(query.get('q') ?? '', l.name)) {
      const link = turn(`Open ${this.label(l)}.`, this.click(obs, 'link', this.label(l)));
      if (link) return link;
      if (query.has('page') || [...query.keys()].length === 1) return turn('The next page of results.', this.click(obs, 'link', this.w.next));
    }
    return this.search(obs, l.name);
  }

  private search(obs: Observation, text: string): Turn {
    const box = find(obs, ['searchbox', 'textbox'], this.w.searchBox);
    if (!box) return null;
    if (normalizeText(box.value ?? '') !== normalizeText(text)) return turn(`Search for ${text}.`, act.fill(box, text));
    return turn('Run the search.', act.press(box, 'Enter'));
  }

  /** Tier 3 on a subcategory's listing: set the filters and sort, then open the first result. */
  private rankOnListing(obs: Observation, g: Extract<DirectoryGoal, { kind: 'ranked' }>): Turn {
    const l = listingById(this.s, g.listing)!;
    const c = categoryOf(this.s, l.category)!;
    const sub = subOf(this.s, l.category, l.sub)!;
    const { path, query } = instancePath(obs.url);
    if (path === `/c/${c.slug}/${sub.slug}`) return this.applyFilters(obs, query, g.filters, l);
    if (path === `/c/${c.slug}`) return turn(`Open ${sub.name}.`, this.click(obs, 'link', sub.name));
    return turn(`Open the ${c.name} category.`, this.click(obs, 'link', c.name));
  }

  /** Tier 3 by search: search the shared name, then filter and sort the results. */
  private rankBySearch(obs: Observation, g: Extract<DirectoryGoal, { kind: 'ranked' }>): Turn {
    const l = listingById(this.s, g.listing)!;
    const { path, query } = instancePath(obs.url);
    if (path === '/search' && sameText(query.get('q') ?? '', g.filters.q)) return this.applyFilters(obs, query, g.filters, l);
    return this.search(obs, g.filters.q);
  }

  /** Once the page's query is the goal's, the winner leads; until then, one control at a time, then apply. */
  private applyFilters(obs: Observation, query: URLSearchParams, want: ListingQuery, winner: Listing): Turn {
    const have = parseListingQuery(this.s, query).query;
    const key = (q: ListingQuery) => queryParams({ ...q, q: normalizeText(q.q) }, 1).toString();
    if (key(have) === key(want)) return turn(`The filters are set; ${this.label(winner)} comes first.`, this.click(obs, 'link', this.label(winner)));
    const w = this.w;
    const s = this.s;
    const town = townOf(s, want.town);
    const type = s.types.find((t) => typeSlug(t) === want.type);
    const steps: Array<[string, string | null]> = [
      [`${w.region}: ${town?.name ?? w.allRegions}.`, selectIfNeeded(obs, w.region, town?.name ?? w.allRegions, want.town)],
      [`${w.type}: ${type ?? w.allTypes}.`, selectIfNeeded(obs, w.type, type ?? w.allTypes, want.type)],
      ...this.dayControls(obs, want.days),
      [`${w.openNow}: ${want.openNow ? 'on' : 'off'}.`, this.checkbox(obs, w.openNow, want.openNow)],
      [`${w.rating}: ${want.minRating || 'any'}.`, selectIfNeeded(obs, w.rating, want.minRating ? ratingLabel(w, want.minRating) : w.anyRating, want.minRating ? String(want.minRating) : '')],
      [`${w.sort}: ${w.sorts[want.sort]}.`, selectIfNeeded(obs, w.sort, w.sorts[want.sort], want.sort)],
    ];
    for (const [thought, a] of steps) if (a) return { thought, action: a };
    return turn('Apply the filters.', this.click(obs, 'button', w.apply));
  }

  private dayControls(obs: Observation, days: number[]): Array<[string, string | null]> {
    const w = this.w;
    if (this.s.look.dayControl === 'select') {
      const d = days[0];
      return [[`${w.day}: ${d === undefined ? w.anyDay : DAY_NAMES[d]}.`, selectIfNeeded(obs, w.day, d === undefined ? w.anyDay : DAY_NAMES[d], d === undefined ? '' : DAY_KEYS[d])]];
    }
    return [SATURDAY, SUNDAY].map((d) => [`Open on ${DAY_NAMES[d]}s: ${days.includes(d) ? 'on' : 'off'}.`, this.checkbox(obs, dayCheckboxLabel(w, DAY_NAMES[d]), days.includes(d))]);
  }

  private checkbox(obs: Observation, name: string, on: boolean): string | null {
    const el = find(obs, 'checkbox', name);
    return el && (el.checked === true) !== on ? act.click(el) : null;
  }

  /** Somewhere unexpected: back home. */
  private home(obs: Observation): AgentTurn {
    return turn('Back to the directory home.', this.click(obs, 'link', this.w.nav.home)) ?? { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
