/** Picks the shop task for a seed and tier and phrases its instruction. */
import type { GoalKind, Tier } from '../../types.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { FEATURED, SHIPPING, categoryOf, generateCatalog, randomAddress, type Product, type ShopGoal, type ShopState } from './data.ts';
import { drawVariant } from './variant.ts';

export function generateShop(seed: number, tier: Tier): { state: ShopState; instruction: string; goalKind: GoalKind } {
  const catalog = generateCatalog(seed);
  const rng = new Rng(mixSeed(seed, 'shop-task', tier));
  const products = catalog.products;
  // Half of the purchases go to the saved address (check it, keep it), half somewhere new (replace it).
  const account = randomAddress(rng);
  let goal: ShopGoal;
  if (tier === 2) goal = cheapestGoal(rng, products, catalog.brands);
  else {
    // Tier 1 names a product featured on the home page (no search needed); tier 3 one that must be found.
    const featured = products.filter((x) => x.inStock).slice(0, FEATURED);
    const p = rng.pick(tier === 1 ? featured : products.filter((x) => x.inStock && !featured.includes(x)));
    goal = { kind: tier === 1 ? 'add' : 'buy', productId: p.id, qty: tier === 1 ? 1 : rng.int(2, 3) };
    if (p.sizes.length) goal.size = rng.pick(p.sizes);
    if (tier === 3) {
      if (p.colors.length > 1) goal.color = rng.pick(p.colors);
      goal.shipping = rng.pick(SHIPPING).id;
      goal.address = rng.chance(0.5) ? { ...account } : { ...randomAddress(rng), name: rng.chance(0.5) ? account.name : randomAddress(rng).name };
    }
  }
  // The presentation comes from its own stream of the seed: drawing it changes none of the above.
  const state: ShopState = { ...catalog, account, goal, cart: [], orders: [], variant: drawVariant(seed), ui: { cookiesDismissed: false } };
  // Every shop task is a cart or an order.
  return { state, instruction: instructionFor(goal, products), goalKind: 'state' };
}

/** The cheapest in-stock product of one brand in one category, made unique by construction. */
function cheapestGoal(rng: Rng, products: Product[], brands: string[]): ShopGoal {
  const groups: Product[][] = [];
  for (const b of brands) {
    for (const slug of new Set(products.map((p) => p.category))) {
      const g = products.filter((p) => p.brand === b && p.category === slug);
      if (g.filter((p) => p.inStock).length >= 2) groups.push(g);
    }
  }
  const group = rng.pick(groups);
  const inStock = group.filter((p) => p.inStock).sort((a, b) => a.price - b.price || a.id - b.id);
  const target = inStock[0];
  // Ties would make "the cheapest" ambiguous; nudge the others up.
  for (const p of inStock.slice(1)) if (p.price <= target.price) p.price = target.price + 100 * rng.int(1, 20);
  // Half the time an out-of-stock item undercuts it, so the stock filter matters.
  const out = group.filter((p) => !p.inStock);
  if (out.length && rng.chance(0.5)) out[0].price = Math.max(500, target.price - 100 * rng.int(1, 9));
  const goal: ShopGoal = { kind: 'cheapest', productId: target.id, qty: rng.int(1, 2), brand: target.brand, category: target.category };
  if (target.sizes.length) goal.size = rng.pick(target.sizes);
  return goal;
}

function instructionFor(goal: ShopGoal, products: Product[]): string {
  const p = products.find((x) => x.id === goal.productId)!;
  const size = goal.size ? ` in size ${goal.size}` : '';
  if (goal.kind === 'add') return `Add the "${p.name}"${size} to your shopping cart.`;
  if (goal.kind === 'cheapest') {
    const label = categoryOf(goal.category!)!.label;
    const what = goal.qty === 1 ? `the cheapest in-stock item` : `${goal.qty} of the cheapest in-stock item`;
    return `Add ${what} in ${label} from ${goal.brand}${size} to your shopping cart.`;
  }
  const a = goal.address!;
  const ship = SHIPPING.find((s) => s.id === goal.shipping)!.label;
  const color = goal.color ? ` in ${goal.color}` : '';
  return `Buy ${goal.qty} of the "${p.name}"${color}${size} and ship them ${ship} to ${a.name}, ${a.street}, ${a.city} ${a.postal}.`;
}
