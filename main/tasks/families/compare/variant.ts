/**
 * How one compare instance looks and words itself, drawn from the seed alone (its own stream, see
 * ../common/variant.ts). The two stores are separate sites, so each draws its own words, navigation
 * order, home-page order, product listing, product page, checkout field order and accent; the start
 * page of bookmarks draws its own words, store order and view. One to three distractors (a parcel
 * tracker bookmark, help / gift-card / returns links, a returns promo box) are spread over the
 * three. Pages and the oracle read all of it from `state.variant`; the content (stores, prices,
 * stock, goal) never depends on it.
 */
import { drawWords, fill, variantRng, type WordsOf } from '../common/variant.ts';
import type { Rng } from '../../../common/rng.ts';
export { fill };

/**
 * A store's labels. The first synonym is what the stores said before they varied. Lists are
 * disjoint across keys (every store page shows several), so a name always means one thing.
 * `{store}`, `{item}`, `{q}` and `{amount}` stand for data, kept verbatim.
 */
export const STORE_WORDING = {
  search: ['Search {store}', 'Search products', 'Find a product', 'Search the catalogue'],
  searchButton: ['Search', 'Go', 'Find', 'Look up'],
  navStores: ['All stores', 'My bookmarks', 'Back to bookmarks', 'Other stores'],
  navOrders: ['Your {store} orders', 'My orders', 'Order history', 'Past orders'],
  welcome: ['Welcome to {store}', 'Shop {store}', '{store} online', 'Hello from {store}'],
  allProducts: ['All products', 'Everything we sell', 'Our range', 'The catalogue'],
  resultsFor: ['Results for "{q}"', 'Search results for "{q}"', 'Products matching "{q}"', 'You searched for "{q}"'],
  noResults: ['No products match.', 'Nothing matches your search.', 'No results.', 'We found nothing for that.'],
  shipping: ['Shipping', 'Delivery', 'Postage', 'Shipping cost'],
  perOrder: ['{amount} per order', '{amount} flat per order', '{amount} per order, whatever its size', 'a flat {amount} per order'],
  free: ['free', 'free on every order', 'always free', 'free of charge'],
  price: ['Price', 'Our price', 'Price each', 'Cost'],
  availability: ['Availability', 'Stock', 'In stock?', 'Status'],
  inStock: ['In stock', 'Available', 'Ready to ship', 'In stock now'],
  outOfStock: ['Out of stock', 'Sold out', 'Unavailable', 'Currently unavailable'],
  buyNow: ['Buy now', 'Buy it now', 'Order now', 'Get it now'],
  backTo: ['Back to {item}', 'Return to {item}', 'Back to the product', 'Product details'],
  checkout: ['Checkout', 'Your order', 'Complete your order', 'Delivery details'],
  qty: ['Quantity', 'Qty', 'How many', 'Number of items'],
  name: ['Full name', 'Name', 'Recipient', "Recipient's name"],
  street: ['Street address', 'Address', 'Street', 'Address line 1'],
  city: ['City', 'Town or city', 'Town', 'City / town'],
  zip: ['ZIP code', 'ZIP', 'Postal code', 'ZIP / postal code'],
  placeOrder: ['Place order', 'Complete purchase', 'Confirm order', 'Submit order'],
  orderPlaced: ['Order placed', 'Thank you for your order', 'Order confirmed', 'We have your order'],
  noOrders: ['No orders yet.', 'You have not ordered anything yet.', 'Nothing ordered so far.', 'No past orders.'],
} as const;

/** The start page's labels (the store links are the stores' own names). */
export const START_WORDING = {
  siteName: ['Start page', 'Bookmarks', 'My start page', 'Home base'],
  heading: ['Your shopping bookmarks', 'Bookmarked stores', 'Where I shop', 'Saved shops'],
  note: ['Both stores ship anywhere in the country.', 'Each store delivers nationwide.', 'Both shops deliver anywhere in the country.', 'Either store will ship to you.'],
} as const;

export type StoreWords = WordsOf<typeof STORE_WORDING>;
export type StartWords = WordsOf<typeof START_WORDING>;

/** A store's navigation: the bookmarks and its orders, plus distractor links to plain pages. */
export type StoreNavKey = 'stores' | 'orders' | 'help' | 'giftCards' | 'returns';
/** A store's home page below its heading: shipping, the products, and maybe a returns promo box. */
export type StoreSectionKey = 'shipping' | 'products' | 'promo';
export type CheckoutField = 'qty' | 'name' | 'street' | 'city' | 'zip';
export type Accent = 'rust' | 'teal' | 'olive' | 'indigo' | 'berry';

export interface StoreLook {
  words: StoreWords;
  nav: StoreNavKey[];
  sections: StoreSectionKey[];
  /** Where the navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** How product listings show: cards, a plain list, or a table. */
  listing: 'grid' | 'list' | 'table';
  /** The product page: price and stock as lines, or as a facts table. */
  productView: 'plain' | 'facts';
  checkoutFields: CheckoutField[];
  accent: Accent;
}

export interface CompareVariant {
  start: {
    words: StartWords;
    /** The stores' bookmarks in this order. */
    stores: Array<'a' | 'b'>;
    view: 'chips' | 'list' | 'cards';
    /** A distractor bookmark to a parcel tracker. */
    tracker: boolean;
  };
  stores: Record<'a' | 'b', StoreLook>;
}

const STORE_NAV_EXTRAS: StoreNavKey[] = ['help', 'giftCards', 'returns'];
/** Where the one to three distractors of an instance can go. */
const DISTRACTOR_SLOTS = ['start:tracker', ...(['a', 'b'] as const).flatMap((k) => [...STORE_NAV_EXTRAS, 'promo'].map((x) => `${k}:${x}`))];
const CHECKOUT_ORDERS: CheckoutField[][] = [
  ['qty', 'name', 'street', 'city', 'zip'],
  ['name', 'street', 'city', 'zip', 'qty'],
  ['name', 'street', 'zip', 'city', 'qty'],
  ['qty', 'name', 'zip', 'city', 'street'],
];
const ACCENTS: Accent[] = ['rust', 'teal', 'olive', 'indigo', 'berry'];

function drawStore(rng: Rng, key: 'a' | 'b', distractors: string[], accent: Accent): StoreLook {
  const has = (x: string) => distractors.includes(`${key}:${x}`);
  return {
    words: drawWords(rng, STORE_WORDING),
    nav: rng.shuffle<StoreNavKey>(['stores', 'orders', ...STORE_NAV_EXTRAS.filter(has)]),
    sections: rng.shuffle<StoreSectionKey>(['shipping', 'products', ...(has('promo') ? (['promo'] as const) : [])]),
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    listing: rng.pick(['grid', 'list', 'table'] as const),
    productView: rng.pick(['plain', 'facts'] as const),
    checkoutFields: rng.pick(CHECKOUT_ORDERS),
    accent,
  };
}

export function drawVariant(seed: number): CompareVariant {
  const rng = variantRng(seed, 'compare');
  const distractors = rng.sample(DISTRACTOR_SLOTS, rng.int(1, 3));
  // Two different accents, so the two stores never look like one site.
  const [accentA, accentB] = rng.sample(ACCENTS, 2);
  return {
    start: {
      words: drawWords(rng, START_WORDING),
      stores: rng.shuffle(['a', 'b'] as const),
      view: rng.pick(['chips', 'list', 'cards'] as const),
      tracker: distractors.includes('start:tracker'),
    },
    stores: { a: drawStore(rng, 'a', distractors, accentA), b: drawStore(rng, 'b', distractors, accentB) },
  };
}


/** How many distractors an instance shows, over the start page and both stores. */
export function distractorCount(v: CompareVariant): number {
  const extras = (l: StoreLook) => l.nav.length - 2 + l.sections.length - 2;
  return (v.start.tracker ? 1 : 0) + extras(v.stores.a) + extras(v.stores.b);
}
