/** The comparison oracle: looks the product up in both stores (remembering what it saw), then answers or buys. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import type { TaskSpec } from '../../types.ts';
import { money } from '../common/html.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath } from '../common/oracle.ts';
import type { Ctx } from './site.ts';

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

  /** One step towards the product's page in a store. */
  private towards(obs: Observation, path: string, key: 'a' | 'b'): AgentTurn {
    const s = this.ctx.state;
    const st = s.stores.find((x) => x.key === key)!;
    const it = st.items.find((x) => x.id === s.goal.item)!;
    if (path.startsWith(`/s/${key}/`)) {
      const link = find(obs, 'link', it.name);
      if (link) return { thought: `Open the ${it.name} at ${st.name}.`, action: act.click(link) };
      const home = find(obs, 'link', st.name);
      if (home) return { thought: `Back to the ${st.name} front page.`, action: act.click(home) };
    }
    const store = find(obs, 'link', st.name);
    if (store && path === '/') return { thought: `Visit ${st.name}.`, action: act.click(store) };
    const all = find(obs, 'link', 'All stores');
    if (all) return { thought: 'Back to my store bookmarks.', action: act.click(all) };
    return { thought: 'Go to the start page.', action: act.goto(this.ctx.baseUrl + '/') };
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const { path } = instancePath(obs.url);
    const pm = path.match(/^\/s\/([ab])\/p\/(\d+)$/);
    if (pm && Number(pm[2]) === g.item) this.seen.add(pm[1]);

    if (g.kind === 'price') {
      const st = s.stores.find((x) => x.key === g.store)!;
      if (this.seen.has(g.store)) return { thought: `It costs ${g.answer} at ${st.name}.`, action: act.say(`The price at ${st.name} is ${g.answer}.`) };
      return this.towards(obs, path, g.store);
    }
    const missing = (['a', 'b'] as const).find((k) => !this.seen.has(k));
    if (missing && !(g.kind === 'buy' && s.orders.length)) return this.towards(obs, path, missing);
    if (g.kind === 'cheaper') return { thought: `${g.answer} is cheaper with shipping.`, action: act.say(`${g.answer} is cheaper once shipping is included.`) };

    const st = s.stores.find((x) => x.key === g.store)!;
    const it = st.items.find((x) => x.id === g.item)!;
    const om = path.match(/^\/s\/([ab])\/order\/([\w-]+)$/);
    if (om && s.orders.some((o) => o.store === g.store && o.item === g.item)) return { thought: 'Ordered.', action: act.say(`Ordered ${g.qty} × ${it.name} from ${st.name} for ${money(it.price * g.qty + st.shipping)}; order ${om[2]}.`) };
    if (path === `/s/${g.store}/checkout/${g.item}`) {
      const steps: Array<[string, string | null]> = [
        ['Quantity.', fillIfNeeded(obs, 'spinbutton', 'Quantity', String(g.qty))],
        ['Name.', fillIfNeeded(obs, 'textbox', 'Full name', g.name)],
        ['Street.', fillIfNeeded(obs, 'textbox', 'Street address', g.street)],
        ['City.', fillIfNeeded(obs, 'textbox', 'City', g.city)],
        ['ZIP.', fillIfNeeded(obs, 'textbox', 'ZIP code', g.zip)],
      ];
      for (const [thought, a] of steps) if (a) return { thought, action: a };
      return { thought: 'Place the order.', action: act.click(find(obs, 'button', 'Place order')!) };
    }
    if (path === `/s/${g.store}/p/${g.item}`) {
      const buy = find(obs, 'link', 'Buy now');
      if (buy) return { thought: `${st.name} is cheaper in total; buy here.`, action: act.click(buy) };
    }
    return this.towards(obs, path, g.store);
  }
}
