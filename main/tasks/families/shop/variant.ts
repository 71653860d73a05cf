/**
 * How one shop instance looks and words itself, drawn from the seed alone. A policy trained on a
 * store with one fixed layout learns where "Add to cart" sits and what the search box is called
 * instead of reading the page; here every instance draws its labels from synonyms, orders its
 * navigation, home-page sections, filters and form fields, adds one to three distractors and picks
 * a layout. The draw has its own stream of the seed (`variantRng(seed, 'shop')`), so the catalog,
 * goal and instruction of every seed stay what they were. Pages and the oracle both read the chosen
 * words from `state.variant`, so the oracle finds every control by the name it has on this site.
 */
import { COOKIE_WORDING, type CookieWords, drawWords, fill, placeDistractors, variantRng } from '../common/variant.ts';
import { CATEGORIES } from './data.ts';
export { fill };

/**
 * Synonyms per label; the first of each list is what the store said before it varied. Lists are
 * disjoint across keys that can share a page, so a name found on a page always means one thing.
 * `{n}`, `{q}`, `{first}`, `{brand}`, `{name}`, `{label}`, `{detail}` and `{price}` are filled with
 * the data verbatim (see `fill`).
 */
export const WORDING = {
  // On every page: the header.
  search: ['Search products', 'Search the store', 'Find gear', 'What are you looking for?'],
  searchGo: ['Search', 'Go', 'Find', 'Look it up'],
  cartLink: ['Cart ({n})', 'Basket ({n})', 'Bag ({n})', 'My cart ({n})'],
  greeting: ['Hi, {first}', 'Hello, {first}', 'Welcome back, {first}', 'Signed in as {first}'],
  // Home.
  heroTitle: ['Gear up for the season', 'Ready for the outdoors', 'New season, new adventures', 'Kit for every trail'],
  heroText: ['Free returns on all orders. Express shipping available.', 'Returns are free. Need it fast? Choose express shipping.', 'Free returns, and express or next-day shipping at checkout.', 'Send it back for free if it does not fit.'],
  featured: ['Featured products', 'Top picks', 'Popular right now', 'Staff favourites'],
  brands: ['Shop by brand', 'Our brands', 'Browse by brand', 'Brands we carry'],
  // The listing: its filters, sort, headings and pages.
  category: ['Category', 'Department', 'Product type', 'Section'],
  allCategories: ['All categories', 'Every department', 'Any product type', 'All sections'],
  brand: ['Brand', 'Maker', 'Manufacturer', 'Brand name'],
  allBrands: ['All brands', 'Any maker', 'Every manufacturer', 'Any brand'],
  color: ['Color', 'Colour', 'Shade', 'Main color'],
  anyColor: ['Any color', 'Any colour', 'Every shade', 'All colors'],
  maxPrice: ['Max price ($)', 'Up to ($)', 'Price limit ($)', 'Highest price ($)'],
  inStockOnly: ['In stock only', 'Hide sold-out items', 'Only items in stock', 'Ready to ship only'],
  sort: ['Sort by', 'Order by', 'Sort results', 'Arrange by'],
  sortRelevance: ['Relevance', 'Best match', 'Recommended', 'Most relevant'],
  sortPriceAsc: ['Price: low to high', 'Lowest price first', 'Price, ascending', 'Cheapest first'],
  sortPriceDesc: ['Price: high to low', 'Highest price first', 'Price, descending', 'Most expensive first'],
  sortRating: ['Customer rating', 'Top rated', 'Average rating', 'Best reviewed'],
  apply: ['Apply filters', 'Update results', 'Show results', 'Refine'],
  allProducts: ['All products', 'Everything we sell', 'All items', 'The whole range'],
  resultsFor: ['Results for "{q}"', 'You searched for "{q}"', 'Matches for "{q}"', 'Search: "{q}"'],
  noResults: ['No products match your search. Try removing a filter.', 'Nothing matches. Remove a filter and try again.', 'We found nothing for that. Fewer filters may help.', 'No matches here; widen your search.'],
  prevPage: ['Previous page', 'Previous', 'Back a page', 'Earlier results'],
  nextPage: ['Next page', 'Next', 'More results', 'Later results'],
  pageN: ['Page {n}', '{n}', 'Go to page {n}', 'Results page {n}'],
  outOfStock: ['Out of stock', 'Sold out', 'Unavailable', 'Currently unavailable'],
  // The product page.
  crumbHome: ['Home', 'Store', 'Shop home', 'Start'],
  byBrand: ['by {brand}', 'from {brand}', 'Brand: {brand}', 'Made by {brand}'],
  inStock: ['In stock', 'Available', 'Ready to ship', 'In stock now'],
  size: ['Size', 'Select size', 'Your size', 'Pick a size'],
  qty: ['Quantity', 'Qty', 'How many', 'Number of items'],
  addToCart: ['Add to cart', 'Add to basket', 'Add to bag', 'Put in cart'],
  // The cart: one line per product, its controls named after it.
  cartTitle: ['Shopping cart', 'Your cart', 'Your basket', 'Your bag'],
  lineQty: ['Quantity for {name}', 'Qty of {name}', 'How many {name}', 'Number of {name}'],
  lineUpdate: ['Update quantity for {name}', 'Save quantity of {name}', 'Change quantity of {name}', 'Recalculate {name}'],
  lineRemove: ['Remove {name}', 'Delete {name}', 'Discard {name}', 'Drop {name}'],
  subtotal: ['Subtotal', 'Items total', 'Sum of items', 'Total before shipping'],
  toCheckout: ['Proceed to checkout', 'Check out', 'Go to checkout', 'Continue to delivery'],
  keepShopping: ['Continue shopping', 'Keep browsing', 'Back to the store', 'Shop some more'],
  cartEmpty: ['Your cart is empty.', 'Nothing in your cart yet.', 'There is nothing here yet.', 'No items yet.'],
  // Checkout and the order page.
  checkoutTitle: ['Checkout', 'Secure checkout', 'Delivery and payment', 'Almost done'],
  addressLegend: ['Shipping address', 'Delivery address', 'Ship to', 'Where should we send it?'],
  savedHint: ['Your saved address is filled in; change it to ship somewhere else.', 'We filled in your saved address. Edit it to send the order elsewhere.', 'This is the address on your account; overwrite it for another one.', 'Saved address shown. Change any line to ship elsewhere.'],
  fullName: ['Full name', 'Name', 'Recipient name', 'Addressee'],
  street: ['Street address', 'Address line', 'Street and number', 'House number and street'],
  city: ['City', 'Town', 'Town or city', 'City/Town'],
  postal: ['Postal code', 'ZIP code', 'Postcode', 'ZIP'],
  shippingLegend: ['Shipping method', 'Delivery speed', 'Delivery options', 'How fast?'],
  /** A shipping radio: `{label}` (Standard, Express, Next-day, as the task names them) always first. */
  shippingOption: ['{label} ({detail}) {price}', '{label}: {detail}, {price}', '{label}, {price} ({detail})', '{label} - {detail} - {price}'],
  placeOrder: ['Place order', 'Buy now', 'Confirm purchase', 'Complete order'],
  summaryTitle: ['Order summary', 'In your order', 'Your items', 'Summary'],
  editCart: ['Edit cart', 'Change items', 'Back to cart', 'Edit items'],
  thanks: ['Thank you for your order!', 'Order confirmed', 'Thanks, your order is in', 'Your order has been placed'],
  orderNumber: ['Your order number is', 'Order number:', 'Reference:', 'Your reference is'],
} as const;

export type WordKey = keyof typeof WORDING;
export type Words = { [K in WordKey]: string };

/** Distractor links in the navigation, each to a plain page of the store that helps with nothing. */
export type ExtraNav = 'giftCards' | 'help' | 'stores' | 'careers';
/** A navigation entry: a category (by its slug, named by its label, as tasks name it) or a distractor. */
export type NavKey = { category: string } | { extra: ExtraNav };
/** Home-page sections; the last three are distractors, each linking to a plain page. */
export type SectionKey = 'hero' | 'featured' | 'brands' | 'guides' | 'club' | 'app';
export type FilterKey = 'category' | 'brand' | 'color' | 'maxPrice' | 'inStock' | 'sort';
export type AddressField = 'name' | 'street' | 'city' | 'postal';
export type ProductOption = 'color' | 'size' | 'qty';

export interface Variant {
  words: Words;
  cookie: CookieWords;
  nav: NavKey[];
  sections: SectionKey[];
  filters: FilterKey[];
  addressFields: AddressField[];
  productOptions: ProductOption[];
  /** Where the main navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** How product lists (home and listing) show: cards in a grid, rows of a list, or a table. */
  listView: 'cards' | 'list' | 'table';
  /** The listing's filters: a column beside the results or a bar above them. */
  filtersPlacement: 'side' | 'top';
  /** Whether checkout asks for the shipping method before the address. */
  shippingFirst: boolean;
  /** A colour scheme (a class on <body>). */
  accent: 'forest' | 'rust' | 'ocean' | 'slate';
}

const DISTRACTOR_NAV: ExtraNav[] = ['giftCards', 'help', 'stores', 'careers'];
const CORE_SECTIONS: SectionKey[] = ['hero', 'featured', 'brands'];
const DISTRACTOR_SECTIONS: SectionKey[] = ['guides', 'club', 'app'];
const FILTERS: FilterKey[] = ['category', 'brand', 'color', 'maxPrice', 'inStock', 'sort'];
const ADDRESS_ORDERS: AddressField[][] = [
  ['name', 'street', 'city', 'postal'],
  ['name', 'street', 'postal', 'city'],
  ['name', 'postal', 'city', 'street'],
];
const OPTION_ORDERS: ProductOption[][] = [
  ['color', 'size', 'qty'],
  ['size', 'color', 'qty'],
  ['qty', 'color', 'size'],
];

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'shop');
  const words = drawWords(rng, WORDING);
  const cookie = drawWords(rng, COOKIE_WORDING);
  const { nav, sections } = placeDistractors<NavKey, SectionKey>(
    rng,
    { core: CATEGORIES.map((c) => ({ category: c.slug })), extra: DISTRACTOR_NAV.map((extra) => ({ extra })) },
    { core: CORE_SECTIONS, extra: DISTRACTOR_SECTIONS },
  );
  return {
    words,
    cookie,
    nav,
    sections,
    filters: rng.shuffle(FILTERS),
    addressFields: rng.pick(ADDRESS_ORDERS),
    productOptions: rng.pick(OPTION_ORDERS),
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    listView: rng.pick(['cards', 'list', 'table'] as const),
    filtersPlacement: rng.pick(['side', 'top'] as const),
    shippingFirst: rng.chance(0.35),
    accent: rng.pick(['forest', 'rust', 'ocean', 'slate'] as const),
  };
}


/** The cart link's name for any count on this site, as a pattern ("Basket (3)"). */
export function cartLinkPattern(words: Words): RegExp {
  const [before, after] = words.cartLink.split('{n}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${before}\\d+${after}$`);
}

/** The visible text of a per-line cart button: the template's verb ("Remove {name}" -> "Remove"). */
export function verbOf(template: string): string {
  return template.split(' ')[0];
}
