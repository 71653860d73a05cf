/**
 * The shop oracle: a state machine on the URL path and the page's elements. It knows the target
 * from the instance state but acts only through actions, as any agent would.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { normalizeText } from '../../../common/normalize.ts';
import { OracleAgent, act, fillIfNeeded, find, findAll, instancePath, selectIfNeeded, startsWith, valueIs } from '../common/oracle.ts';
import { SHIPPING, categoryOf } from './data.ts';
import type { Ctx } from './pages-browse.ts';

export class ShopOracle extends OracleAgent {
  readonly name = 'oracle:shop';
  protected override readonly overlay = 'A cookie banner';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const p = s.products.find((x) => x.id === g.productId)!;
    const { path, query } = instancePath(obs.url);

    if (path.startsWith('/order/')) return { thought: 'The order is confirmed.', action: act.say(`Order placed for ${g.qty} × ${p.name}.`) };

    if (path === '/checkout' && g.kind === 'buy') {
      const a = g.address!;
      const fields: Array<[string, string]> = [['Full name', a.name], ['Street address', a.street], ['City', a.city], ['Postal code', a.postal]];
      for (const [label, value] of fields) {
        const f = fillIfNeeded(obs, 'textbox', startsWith(label), value);
        if (f) return { thought: `Enter the ${label.toLowerCase()}.`, action: f };
      }
      const ship = SHIPPING.find((x) => x.id === g.shipping)!;
      const radio = find(obs, 'radio', startsWith(ship.label));
      if (radio && radio.checked !== true) return { thought: `Choose ${ship.label} shipping.`, action: act.click(radio) };
      const place = find(obs, 'button', 'Place order');
      if (place) return { thought: 'Everything is filled in; place the order.', action: act.click(place) };
    }

    if (path === '/cart') {
      const other = findAll(obs, 'button', /^Remove /).find((b) => normalizeText(b.name) !== normalizeText(`Remove ${p.name}`));
      if (other) return { thought: 'Remove an item the task did not ask for.', action: act.click(other) };
      const qty = find(obs, 'spinbutton', `Quantity for ${p.name}`);
      if (qty) {
        const inCart = s.cart.filter((l) => l.productId === p.id).reduce((n, l) => n + l.qty, 0);
        if (!valueIs(qty, String(g.qty))) return { thought: `Set the quantity to ${g.qty}.`, action: act.fill(qty, String(g.qty)) };
        if (inCart !== g.qty) {
          const upd = find(obs, 'button', `Update quantity for ${p.name}`) ?? find(obs, 'button', 'Update');
          if (upd) return { thought: 'Save the new quantity.', action: act.click(upd) };
        }
        if (g.kind === 'buy') {
          const go = find(obs, 'link', 'Proceed to checkout');
          if (go) return { thought: 'The cart is right; go to checkout.', action: act.click(go) };
        } else {
          return { thought: 'The cart holds exactly what was asked.', action: act.say(`Added ${g.qty} × ${p.name} to the cart.`) };
        }
      }
    }

    const pm = path.match(/^\/product\/(\d+)$/);
    if (pm) {
      if (Number(pm[1]) !== p.id) return { thought: 'This is not the product I want; go back.', action: act.goBack() };
      if (g.color) {
        const a = selectIfNeeded(obs, 'Color', g.color);
        if (a) return { thought: `Pick the color ${g.color}.`, action: a };
      }
      if (g.size) {
        const a = selectIfNeeded(obs, 'Size', g.size);
        if (a) return { thought: `Pick size ${g.size}.`, action: a };
      }
      const q = fillIfNeeded(obs, 'spinbutton', 'Quantity', String(g.qty));
      if (q) return { thought: `Set quantity ${g.qty}.`, action: q };
      const add = find(obs, 'button', 'Add to cart');
      if (add) return { thought: 'Add it to the cart.', action: act.click(add) };
    }

    // The product is already in the cart (e.g. after a detour): go to the cart.
    if (s.cart.some((l) => l.productId === p.id) && path !== '/cart') {
      const cart = find(obs, 'link', /^Cart \(\d+\)$/);
      if (cart) return { thought: 'The product is in the cart; open the cart.', action: act.click(cart) };
    }

    const link = find(obs, 'link', p.name);
    if (g.kind === 'cheapest') {
      const cat = categoryOf(g.category!)!;
      if (path !== '/search') {
        const nav = find(obs, 'link', cat.label);
        if (nav) return { thought: `Open the ${cat.label} category.`, action: act.click(nav) };
      } else {
        const applied = query.get('category') === cat.slug && query.get('brand') === g.brand && query.get('sort') === 'price_asc';
        if (applied && link) return { thought: `${p.name} is the cheapest in-stock match; open it.`, action: act.click(link) };
        const steps: Array<[string, string | null]> = [
          [`Filter by category ${cat.label}.`, selectIfNeeded(obs, 'Category', cat.label, cat.slug)],
          [`Filter by brand ${g.brand}.`, selectIfNeeded(obs, 'Brand', g.brand!)],
          ['Sort by price, lowest first.', selectIfNeeded(obs, 'Sort by', 'Price: low to high', 'price_asc')],
        ];
        for (const [thought, a] of steps) if (a) return { thought, action: a };
        const apply = find(obs, 'button', 'Apply filters');
        if (apply && !applied) return { thought: 'Apply the filters.', action: act.click(apply) };
      }
    }
    if (link && g.kind !== 'cheapest') return { thought: `Open ${p.name}.`, action: act.click(link) };
    const box = find(obs, 'searchbox', 'Search products') ?? find(obs, 'textbox', 'Search products');
    if (box) {
      if (!valueIs(box, p.name)) return { thought: 'Search for the product by name.', action: act.fill(box, p.name) };
      return { thought: 'Run the search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; start again from the home page.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
