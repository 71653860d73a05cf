/**
 * The comparison oracle: looks the product up in both stores (remembering what it saw), then
 * answers or buys. Every control is found by the name the instance gave it (each store's own words
 * in `state.variant`), so it stays right under every wording, order and layout.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import type { TaskSpec } from '../../types.ts';
import { money } from '../common/html.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath } from '../common/oracle.ts';
import type { CompareGoal, Store } from './data.ts';
import { lookOf, storeNavLabel, type Ctx } from './chrome.ts';

type Buy = Extract<CompareGoal, { kind: 'buy' }>;

export class CompareOracle extends OracleAgent {
  readonly name = 'oracle:compare';
  private seen = new Set<string>();
  constructor(private readonly ctx: Ctx) {
    super();
  }

  override reset(task: TaskSpec): void {
    super.reset(task);
    this.seen.clear();
  }

  private store(key: string): Store {
    return this.ctx.state.stores.find((x) => x.key === key)!;
  }

  /** One step towards the product's page in a store. */
  private towards(obs: Observation, path: string, key: 'a' | 'b'): AgentTurn {
    const s = this.ctx.state;
    const st = this.store(key);
    const it = st.items.find((x) => x.id === s.goal.item)!;
    if (path.startsWith(`/s/${key}/`)) {
      const link = find(obs, 'link', it.name);
      if (link) return { thought: `Open the ${it.name} at ${st.name}.`, action: act.click(link) };
      const home = find(obs, 'link', st.name);
      if (home) return { thought: `Back to the ${st.name} front page.`, action: act.click(home) };
    }
    const store = find(obs, 'link', st.name);
    if (store && path === '/') return { thought: `Visit ${st.name}.`, action: act.click(store) };
    // In the other store: its link back to the bookmarks, in its words.
    const here = path.match(/^\/s\/([ab])\//)?.[1];
    const cur = here ? this.store(here) : undefined;
    const back = cur ? find(obs, 'link', storeNavLabel(lookOf(this.ctx, cur).words, cur, 'stores')) : undefined;
    if (back) return { thought: 'Back to my store bookmarks.', action: act.click(back) };
    return { thought: 'Go to the start page.', action: act.goto(this.ctx.baseUrl + '/') };
  }

  /** Fill the checkout form in the order the store shows it, then place the order. */
  private checkout(obs: Observation, st: Store, g: Buy): AgentTurn {
    const w = lookOf(this.ctx, st).words;
    const want = { qty: String(g.qty), name: g.name, street: g.street, city: g.city, zip: g.zip };
    for (const k of lookOf(this.ctx, st).checkoutFields) {
      const a = fillIfNeeded(obs, k === 'qty' ? 'spinbutton' : 'textbox', w[k], want[k]);
      if (a) return { thought: `${w[k]}: ${want[k]}.`, action: a };
    }
    const place = find(obs, 'button', w.placeOrder);
    return place ? { thought: 'Place the order.', action: act.click(place) } : { thought: 'Reload the checkout.', action: act.goto(obs.url) };
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const { path } = instancePath(obs.url);
    const pm = path.match(/^\/s\/([ab])\/p\/(\d+)$/);
    if (pm && Number(pm[2]) === g.item) this.seen.add(pm[1]);

    if (g.kind === 'price') {
      const st = this.store(g.store);
      if (this.seen.has(g.store)) return { thought: `It costs ${g.answer} at ${st.name}.`, action: act.say(`The price at ${st.name} is ${g.answer}.`) };
      return this.towards(obs, path, g.store);
    }
    const missing = (['a', 'b'] as const).find((k) => !this.seen.has(k));
    if (missing && !(g.kind === 'buy' && s.orders.length)) return this.towards(obs, path, missing);
    if (g.kind === 'cheaper') return { thought: `${g.answer} is cheaper with shipping.`, action: act.say(`${g.answer} is cheaper once shipping is included.`) };

    const st = this.store(g.store);
    const it = st.items.find((x) => x.id === g.item)!;
    const om = path.match(/^\/s\/([ab])\/order\/([\w-]+)$/);
    if (om && s.orders.some((o) => o.store === g.store && o.item === g.item)) return { thought: 'Ordered.', action: act.say(`Ordered ${g.qty} × ${it.name} from ${st.name} for ${money(it.price * g.qty + st.shipping)}; order ${om[2]}.`) };
    if (path === `/s/${g.store}/checkout/${g.item}`) return this.checkout(obs, st, g);
    if (path === `/s/${g.store}/p/${g.item}`) {
      const buy = find(obs, 'link', lookOf(this.ctx, st).words.buyNow);
      if (buy) return { thought: `${st.name} is cheaper in total; buy here.`, action: act.click(buy) };
    }
    return this.towards(obs, path, g.store);
  }
}
