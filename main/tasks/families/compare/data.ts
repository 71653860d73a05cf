/** Two online stores selling the same products at different prices, stock and shipping, from the seed. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { CompareVariant } from './variant.ts';

const STORE_NAMES = ['GearHub', 'TrailMart', 'ValueDen', 'ShopRight', 'PrimeCart', 'Basket & Co.'];
const PRODUCTS = [
  'Aeropress coffee maker', 'Trail running shoes', 'Noise-cancelling headphones', 'Insulated water bottle', 'Camping lantern', 'Wireless mouse',
  'Cast iron skillet', 'Yoga mat', 'Electric kettle', 'Backpack 30L', 'Bluetooth speaker', 'Desk lamp', 'Sleeping bag', 'Chef knife', 'Smartwatch band',
];

export interface StoreItem {
  id: number;
  name: string;
  /** Cents. */
  price: number;
  inStock: boolean;
}

export interface Store {
  key: 'a' | 'b';
  name: string;
  /** Flat shipping per order, cents. */
  shipping: number;
  items: StoreItem[];
}

export interface CompareOrder {
  code: string;
  store: 'a' | 'b';
  item: number;
  qty: number;
  name: string;
  street: string;
  city: string;
  zip: string;
}

export type CompareGoal =
  | { kind: 'price'; store: 'a' | 'b'; item: number; answer: string }
  | { kind: 'cheaper'; item: number; answer: string }
  | { kind: 'buy'; item: number; store: 'a' | 'b'; qty: number; name: string; street: string; city: string; zip: string };

export interface CompareState {
  stores: [Store, Store];
  goal: CompareGoal;
  orders: CompareOrder[];
  /** How the start page and each store look and word themselves (./variant.ts); never the content. */
  variant: CompareVariant;
}

/** What one order of `qty` costs at a store, shipping included; null when out of stock. */
export function totalAt(store: Store, item: number, qty: number): number | null {
  const it = store.items.find((x) => x.id === item);
  return it && it.inStock ? it.price * qty + store.shipping : null;
}

export function generateStores(seed: number): [Store, Store] {
  const rng = new Rng(mixSeed(seed, 'compare-data'));
  const [na, nb] = rng.sample(STORE_NAMES, 2);
  const names = rng.sample(PRODUCTS, 12);
  const base = names.map(() => rng.int(15, 250) * 100);
  const make = (key: 'a' | 'b', name: string): Store => ({
    key,
    name,
    shipping: rng.pick([0, 499, 799, 999]),
    items: names.map((n, i) => ({ id: 100 + i * 3, name: n, price: Math.round(base[i] * (0.8 + rng.next() * 0.4)) + rng.pick([0, 49, 99]) - (base[i] % 100), inStock: rng.chance(0.85) })),
  });
  return [make('a', na), make('b', nb)];
}
