/** Picks the comparison task for a seed and tier, phrases its instruction, and judges the result. */
import type { CheckResult, GoalKind, KeyPoint, Tier } from '../../types.ts';
import { money } from '../common/html.ts';
import { answerMatches, normalizeText, sameText } from '../../../common/normalize.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { generateStores, totalAt, type CompareGoal, type CompareOrder, type CompareState, type Store } from './data.ts';
import type { Ctx } from './site.ts';
import { drawVariant } from './variant.ts';

const FIRST = ['Jane', 'Omar', 'Lucia', 'Kwame', 'Sara', 'Ben', 'Yuki', 'Nadia'];
const LAST = ['Doe', 'Haddad', 'Fernandez', 'Mensah', 'Lund', 'Sato', 'Karimi', 'Berg'];
const STREETS = ['12 Oak St', '48 Harbor Dr', '903 Pine Ave', '7 Willow Way', '220 Market St'];
const CITIES = ['Springfield', 'Riverton', 'Lakewood', 'Fairview', 'Greenville'];

/** The store with the lower total for qty (shipping included), or undefined on a tie or when neither sells it. */
export function cheaperStore(stores: [Store, Store], item: number, qty: number): Store | undefined {
  const [a, b] = stores.map((s) => totalAt(s, item, qty));
  if (a === null && b === null) return undefined;
  if (a === null) return stores[1];
  if (b === null) return stores[0];
  return a < b ? stores[0] : b < a ? stores[1] : undefined;
}

export function generateCompareTask(seed: number, tier: Tier): { state: CompareState; instruction: string; goalKind: GoalKind } {
  const stores = generateStores(seed);
  const rng = new Rng(mixSeed(seed, 'compare-task', tier));
  const items = stores[0].items;
  let goal: CompareGoal;
  let instruction: string;
  const [sa, sb] = [stores[0].name, stores[1].name];
  if (tier === 1) {
    const st = rng.pick(stores);
    const it = rng.pick(st.items);
    goal = { kind: 'price', store: st.key, item: it.id, answer: money(it.price) };
    instruction = `How much does the ${it.name} cost at ${st.name}, before shipping? Tell me in a message.`;
  } else if (tier === 2) {
    const both = items.filter((it) => totalAt(stores[0], it.id, 1) !== null && totalAt(stores[1], it.id, 1) !== null && cheaperStore(stores, it.id, 1));
    const it = rng.pick(both.length ? both : items.filter((x) => cheaperStore(stores, x.id, 1)));
    goal = { kind: 'cheaper', item: it.id, answer: cheaperStore(stores, it.id, 1)!.name };
    instruction = `I want one ${it.name}. Which store is cheaper for it once shipping is included, ${sa} or ${sb}? Check both and tell me the store in a message.`;
  } else {
    const qty = rng.int(1, 3);
    const it = rng.pick(items.filter((x) => cheaperStore(stores, x.id, qty)));
    const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
    const street = rng.pick(STREETS);
    const city = rng.pick(CITIES);
    const zip = String(rng.int(10000, 99999));
    goal = { kind: 'buy', item: it.id, store: cheaperStore(stores, it.id, qty)!.key, qty, name, street, city, zip };
    instruction = `Buy ${qty} × ${it.name} from whichever of ${sa} and ${sb} is cheaper in total, shipping included (a store that is out of stock does not count). Ship to ${name}, ${street}, ${city}, ZIP ${zip}.`;
  }
  return { state: { stores, goal, orders: [], variant: drawVariant(seed) }, instruction, goalKind: goal.kind === 'buy' ? 'state' : 'answer' };
}

/** The store a message names first ("GearHub is cheaper than TrailMart" names GearHub). */
export function firstStoreNamed(s: CompareState, message: string): string | undefined {
  const m = normalizeText(message);
  const hits = s.stores.map((st) => ({ name: st.name, at: m.indexOf(normalizeText(st.name)) })).filter((x) => x.at >= 0);
  return hits.sort((a, b) => a.at - b.at)[0]?.name;
}

function orderPoints(ctx: Ctx, o: CompareOrder | undefined): KeyPoint[] {
  const s = ctx.state;
  const g = s.goal as Extract<CompareGoal, { kind: 'buy' }>;
  const store = s.stores.find((x) => x.key === g.store)!;
  const item = store.items.find((x) => x.id === g.item)!;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  point('order placed', !!o, o?.code ?? 'no order was placed');
  point(`bought at ${store.name} (cheaper)`, o?.store === g.store, o ? s.stores.find((x) => x.key === o.store)!.name : undefined);
  point(`product ${item.name}`, o?.item === g.item);
  point(`quantity ${g.qty}`, o?.qty === g.qty, o ? String(o.qty) : undefined);
  point('name', !!o && sameText(o.name, g.name), o?.name);
  point('address', !!o && sameText(o.street, g.street) && sameText(o.city, g.city) && o.zip === g.zip, o ? `${o.street}, ${o.city} ${o.zip}` : undefined);
  return kp;
}

export function checkCompare(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  let kp: KeyPoint[];
  if (g.kind !== 'buy') {
    kp = [
      { name: 'answer sent', met: ctx.agentMessages.length > 0 },
      { name: g.kind === 'price' ? 'correct price' : 'cheaper store named', met: ctx.agentMessages.some((m) => (g.kind === 'price' ? answerMatches(g.answer, m) : firstStoreNamed(s, m) === g.answer)), ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) },
    ];
  } else {
    kp = orderPoints(ctx, s.orders[0]);
    for (const o of s.orders.slice(1)) {
      const k = orderPoints(ctx, o);
      if (k.filter((x) => x.met).length >= kp.filter((x) => x.met).length) kp = k;
    }
    kp.push({ name: 'no other orders', met: s.orders.length <= 1, ...(s.orders.length > 1 ? { detail: `${s.orders.length} orders` } : {}) });
  }
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
