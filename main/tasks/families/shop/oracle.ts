/**
 * The shop oracle: a state machine on the URL path and the page's elements. It knows the target
 * from the instance state but acts only through actions, as any agent would. Every control is found
 * by the name this instance gave it (the variant's words in the state), never by a fixed label, so
 * the oracle stays right under every wording, order and layout.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded, startsWith, valueIs } from '../common/oracle.ts';
import { SHIPPING, categoryOf, type Product, type ShopGoal } from './data.ts';
import type { Ctx } from './chrome.ts';
import { sortLabel } from './pages-browse.ts';
import { addressLabel, lineNames, shippingLabel } from './pages-checkout.ts';
import { cartLinkPattern, type ProductOption } from './variant.ts';

type Turn = AgentTurn | null;

export class ShopOracle extends OracleAgent {
  readonly name = 'oracle:shop';
  protected override readonly overlay = 'A cookie banner';
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
    const p = this.s.products.find((x) => x.id === g.productId)!;
    const { path, query } = instancePath(obs.url);

    if (path.startsWith('/order/')) return { thought: 'The order is confirmed.', action: act.say(`Order placed for ${g.qty} × ${p.name}.`) };
    return (
      (path === '/checkout' && g.kind === 'buy' ? this.checkout(obs, g) : null) ??
      (path === '/cart' ? this.cart(obs, g, p) : null) ??
      this.product(obs, path, g, p) ??
      this.openCart(obs, path, p) ??
      (g.kind === 'cheapest' ? this.cheapest(obs, path, query, g, p) : this.openByName(obs, p)) ??
      this.search(obs, p) ?? { thought: 'Unexpected page; start again from the home page.', action: act.goto(this.ctx.baseUrl + '/') }
    );
  }

  /** Fill the address in the form's order, choose the shipping method, place the order. */
  private checkout(obs: Observation, g: ShopGoal): Turn {
    const a = g.address!;
    for (const k of this.s.variant.addressFields) {
      const label = addressLabel(this.w, k);
      const f = fillIfNeeded(obs, 'textbox', startsWith(label), a[k]);
      if (f) return { thought: `Enter the ${label.toLowerCase()}.`, action: f };
    }
    const ship = SHIPPING.find((x) => x.id === g.shipping)!;
    const radio = find(obs, 'radio', startsWith(shippingLabel(this.w, ship)));
    if (radio && radio.checked !== true) return { thought: `Choose ${ship.label} shipping.`, action: act.click(radio) };
    const place = find(obs, 'button', this.w.placeOrder);
    return place ? { thought: 'Everything is filled in; place the order.', action: act.click(place) } : null;
  }

  /** Remove what the task did not ask for, set the quantity, then answer or go on to checkout. */
  private cart(obs: Observation, g: ShopGoal, p: Product): Turn {
    const others = this.s.cart.map((l) => this.s.products.find((x) => x.id === l.productId)!).filter((x) => x.id !== p.id);
    for (const o of others) {
      const remove = find(obs, 'button', lineNames(this.w, o.name).remove);
      if (remove) return { thought: 'Remove an item the task did not ask for.', action: act.click(remove) };
    }
    const names = lineNames(this.w, p.name);
    const qty = find(obs, 'spinbutton', names.qty);
    if (!qty) return null;
    const inCart = this.s.cart.filter((l) => l.productId === p.id).reduce((n, l) => n + l.qty, 0);
    if (!valueIs(qty, String(g.qty))) return { thought: `Set the quantity to ${g.qty}.`, action: act.fill(qty, String(g.qty)) };
    if (inCart !== g.qty) {
      const upd = find(obs, 'button', names.update);
      if (upd) return { thought: 'Save the new quantity.', action: act.click(upd) };
    }
    if (g.kind !== 'buy') return { thought: 'The cart holds exactly what was asked.', action: act.say(`Added ${g.qty} × ${p.name} to the cart.`) };
    const go = find(obs, 'link', this.w.toCheckout);
    return go ? { thought: 'The cart is right; go to checkout.', action: act.click(go) } : null;
  }

  /** On the wanted product's page, pick its options in the form's order and add it; leave any other. */
  private product(obs: Observation, path: string, g: ShopGoal, p: Product): Turn {
    const pm = path.match(/^\/product\/(\d+)$/);
    if (!pm) return null;
    if (Number(pm[1]) !== p.id) return { thought: 'This is not the product I want; go back.', action: act.goBack() };
    const w = this.w;
    const step: Record<ProductOption, () => Turn> = {
      color: () => (g.color ? this.turn(`Pick the color ${g.color}.`, selectIfNeeded(obs, w.color, g.color)) : null),
      size: () => (g.size ? this.turn(`Pick size ${g.size}.`, selectIfNeeded(obs, w.size, g.size)) : null),
      qty: () => this.turn(`Set quantity ${g.qty}.`, fillIfNeeded(obs, 'spinbutton', w.qty, String(g.qty))),
    };
    for (const k of this.s.variant.productOptions) {
      const t = step[k]();
      if (t) return t;
    }
    const add = find(obs, 'button', w.addToCart);
    return add ? { thought: 'Add it to the cart.', action: act.click(add) } : null;
  }

  /** The product is already in the cart (e.g. after a detour): go to the cart. */
  private openCart(obs: Observation, path: string, p: Product): Turn {
    if (path === '/cart' || !this.s.cart.some((l) => l.productId === p.id)) return null;
    const cart = find(obs, 'link', cartLinkPattern(this.w));
    return cart ? { thought: 'The product is in the cart; open the cart.', action: act.click(cart) } : null;
  }

  /** Tier 2: the category's listing, filtered by brand and sorted by price; its first match is the one. */
  private cheapest(obs: Observation, path: string, query: URLSearchParams, g: ShopGoal, p: Product): Turn {
    const cat = categoryOf(g.category!)!;
    if (path !== '/search') {
      const nav = find(obs, 'link', cat.label);
      return nav ? { thought: `Open the ${cat.label} category.`, action: act.click(nav) } : null;
    }
    const applied = query.get('category') === cat.slug && query.get('brand') === g.brand && query.get('sort') === 'price_asc';
    const link = find(obs, 'link', p.name);
    if (applied && link) return { thought: `${p.name} is the cheapest in-stock match; open it.`, action: act.click(link) };
    const w = this.w;
    const steps: Record<'category' | 'brand' | 'sort', () => Turn> = {
      category: () => this.turn(`Filter by category ${cat.label}.`, selectIfNeeded(obs, w.category, cat.label, cat.slug)),
      brand: () => this.turn(`Filter by brand ${g.brand}.`, selectIfNeeded(obs, w.brand, g.brand!)),
      sort: () => this.turn('Sort by price, lowest first.', selectIfNeeded(obs, w.sort, sortLabel(w, 'price_asc'), 'price_asc')),
    };
    for (const k of this.s.variant.filters) {
      const t = k === 'category' || k === 'brand' || k === 'sort' ? steps[k]() : null;
      if (t) return t;
    }
    const apply = find(obs, 'button', w.apply);
    return apply && !applied ? { thought: 'Apply the filters.', action: act.click(apply) } : null;
  }

  private openByName(obs: Observation, p: Product): Turn {
    const link = find(obs, 'link', p.name);
    return link ? { thought: `Open ${p.name}.`, action: act.click(link) } : null;
  }

  private search(obs: Observation, p: Product): Turn {
    const box = find(obs, ['searchbox', 'textbox'], this.w.search);
    if (!box) return null;
    if (!valueIs(box, p.name)) return { thought: 'Search for the product by name.', action: act.fill(box, p.name) };
    return { thought: 'Run the search.', action: act.press(box, 'Enter') };
  }

  private turn(thought: string, action: string | null): Turn {
    return action ? { thought, action } : null;
  }
}
