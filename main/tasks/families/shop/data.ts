/** Shop catalog and task data, generated from word lists so every seed gets its own store. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { UiState } from '../common/site.ts';
import type { Variant } from './variant.ts';

export interface Category {
  slug: string;
  label: string;
  /** Sizes offered; empty when the product has no size (backpacks). */
  sizes: string[];
  nouns: string[];
  /** Typical price range in dollars. */
  price: [number, number];
}

export const CATEGORIES: Category[] = [
  { slug: 'running-shoes', label: 'Running Shoes', sizes: ['38', '39', '40', '41', '42', '43', '44', '45', '46'], nouns: ['Runner', 'Racer', 'Glide', 'Tempo', 'Sprint', 'Trail Runner'], price: [59, 189] },
  { slug: 'hiking-boots', label: 'Hiking Boots', sizes: ['38', '39', '40', '41', '42', '43', '44', '45', '46'], nouns: ['Boot', 'Trekker', 'Summit Boot', 'Ridge Mid', 'Scrambler'], price: [89, 259] },
  { slug: 't-shirts', label: 'T-Shirts', sizes: ['XS', 'S', 'M', 'L', 'XL'], nouns: ['Tee', 'Crew Tee', 'Tech Tee', 'Pocket Tee', 'Merino Tee'], price: [15, 59] },
  { slug: 'jackets', label: 'Jackets', sizes: ['XS', 'S', 'M', 'L', 'XL'], nouns: ['Shell Jacket', 'Puffer', 'Rain Jacket', 'Windbreaker', 'Fleece'], price: [49, 349] },
  { slug: 'backpacks', label: 'Backpacks', sizes: [], nouns: ['Daypack', 'Rucksack', 'Commuter Pack', 'Hydration Pack', 'Travel Pack'], price: [29, 199] },
];

/** How many in-stock products the home page features. */
export const FEATURED = 8;

export const COLORS = ['Red', 'Blue', 'Black', 'White', 'Green', 'Grey', 'Orange', 'Yellow', 'Navy'];
const ADJECTIVES = ['Swift', 'Aero', 'Nimbus', 'Vertex', 'Alpine', 'Coastal', 'Urban', 'Terra', 'Nova', 'Pulse', 'Zephyr', 'Granite', 'Cascade', 'Ember', 'Horizon', 'Solstice', 'Drift', 'Falcon'];
const BRAND_HEADS = ['Strid', 'North', 'Vel', 'Kest', 'Aur', 'Trek', 'Hal', 'Zen', 'Mon', 'Cor', 'Bri', 'Lum'];
const BRAND_TAILS = ['ex', 'peak', 'ora', 'wind', 'line', 'field', 'io', 'ton', 'ara', 'vale'];
const FIRST = ['Dana', 'Luis', 'Priya', 'Marcus', 'Elena', 'Kenji', 'Aisha', 'Tom', 'Sofia', 'Noah', 'Grace', 'Omar', 'Hannah', 'Ivan', 'Mei'];
const LAST = ['Whitfield', 'Garcia', 'Patel', 'Okafor', 'Novak', 'Tanaka', 'Rahman', 'Keller', 'Rossi', 'Lindqvist', 'Moreau', 'Haddad', 'Brennan', 'Petrov', 'Chen'];
const STREETS = ['Maple Street', 'Oak Avenue', 'Harbor Road', 'Cedar Lane', 'Elm Drive', 'Willow Way', 'Park Place', 'Birch Court', 'Lakeview Terrace'];
const CITIES = ['Springfield', 'Riverton', 'Fairview', 'Lakewood', 'Georgetown', 'Ashland', 'Milton', 'Clayton', 'Oakdale'];

export interface Product {
  id: number;
  name: string;
  brand: string;
  category: string;
  /** Cents. */
  price: number;
  colors: string[];
  sizes: string[];
  inStock: boolean;
  /** 1.0 to 5.0, one decimal. */
  rating: number;
  description: string;
}

export interface CartLine {
  productId: number;
  color?: string;
  size?: string;
  qty: number;
}

export interface Address {
  name: string;
  street: string;
  city: string;
  postal: string;
}

export const SHIPPING = [
  { id: 'standard', label: 'Standard', detail: '3-5 business days', price: 499 },
  { id: 'express', label: 'Express', detail: '1-2 business days', price: 1499 },
  { id: 'nextday', label: 'Next-day', detail: 'next business day', price: 2499 },
] as const;
export type ShippingId = (typeof SHIPPING)[number]['id'];

export interface Order {
  id: string;
  lines: CartLine[];
  shipping: ShippingId;
  address: Address;
  /** Cents, shipping included. */
  total: number;
}

/**
 * What the task asks for. add: a named product into the cart. cheapest: the cheapest in-stock
 * product of a brand in a category, into the cart. buy: a named product with options, bought
 * and shipped to an address.
 */
export interface ShopGoal {
  kind: 'add' | 'cheapest' | 'buy';
  productId: number;
  qty: number;
  color?: string;
  size?: string;
  brand?: string;
  category?: string;
  shipping?: ShippingId;
  address?: Address;
}

export interface ShopState {
  storeName: string;
  /** The signed-in customer; checkout starts from their saved address. */
  account: Address;
  brands: string[];
  products: Product[];
  goal: ShopGoal;
  cart: CartLine[];
  orders: Order[];
  /** How this instance looks and words itself (variant.ts); never what the task is. */
  variant: Variant;
  ui: UiState;
}

export function categoryOf(slug: string): Category | undefined {
  return CATEGORIES.find((c) => c.slug === slug);
}

export function generateCatalog(seed: number): { storeName: string; brands: string[]; products: Product[] } {
  const rng = new Rng(mixSeed(seed, 'shop-catalog'));
  const brands = new Set<string>();
  while (brands.size < 5) brands.add(rng.pick(BRAND_HEADS) + rng.pick(BRAND_TAILS));
  const brandList = [...brands];
  const products: Product[] = [];
  const names = new Set<string>();
  let id = 100 + rng.int(0, 800);
  for (const cat of CATEGORIES) {
    const count = rng.int(10, 13);
    for (let i = 0; i < count; i++) {
      const brand = brandList[i % brandList.length];
      let name = '';
      do name = `${brand} ${rng.pick(ADJECTIVES)} ${rng.pick(cat.nouns)}`;
      while (names.has(name));
      names.add(name);
      const colors = rng.sample(COLORS, rng.int(1, 3));
      const dollars = rng.int(cat.price[0], cat.price[1]);
      products.push({
        id: id++,
        name,
        brand,
        category: cat.slug,
        price: dollars * 100 + rng.pick([0, 0, 50, 99]),
        colors,
        sizes: cat.sizes,
        inStock: rng.chance(0.82),
        rating: Math.round((3 + rng.next() * 2) * 10) / 10,
        description: `The ${name} is built for ${rng.pick(['everyday comfort', 'long days outdoors', 'fast training sessions', 'wet and windy weather', 'city commutes'])}, with ${rng.pick(['recycled materials', 'a lightweight build', 'reinforced seams', 'a breathable lining', 'a lifetime warranty'])}.`,
      });
    }
  }
  return { storeName: `${rng.pick(['Trailhead', 'Summit', 'Basecamp', 'Ridgeline', 'Northbound'])} Outfitters`, brands: brandList, products: rng.shuffle(products) };
}

export function randomAddress(rng: Rng): Address {
  return {
    name: `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
    street: `${rng.int(2, 980)} ${rng.pick(STREETS)}`,
    city: rng.pick(CITIES),
    postal: String(rng.int(10000, 99999)),
  };
}
