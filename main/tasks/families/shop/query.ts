/** Search, filters, sort and pagination of the catalog, shared by the listing page and tests. */
import type { Product } from './data.ts';

export const SORTS = [
  { value: 'relevance', label: 'Relevance' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
  { value: 'rating', label: 'Customer rating' },
] as const;

export const PAGE_SIZE = 12;

export interface ListingQuery {
  q: string;
  category: string;
  brand: string;
  color: string;
  /** Dollars; NaN when unset or not a number. */
  maxPrice: number;
  inStock: boolean;
  sort: string;
  page: number;
}

export function parseListingQuery(qs: URLSearchParams): ListingQuery {
  const max = (qs.get('max_price') ?? '').trim();
  return {
    q: (qs.get('q') ?? '').trim(),
    category: qs.get('category') ?? '',
    brand: qs.get('brand') ?? '',
    color: qs.get('color') ?? '',
    maxPrice: max === '' ? NaN : Number(max.replace(/[$,]/g, '')),
    inStock: qs.get('in_stock') === '1',
    sort: SORTS.some((s) => s.value === qs.get('sort')) ? qs.get('sort')! : 'relevance',
    page: Math.max(1, Math.floor(Number(qs.get('page') ?? '1')) || 1),
  };
}

export function runListing(products: Product[], lq: ListingQuery): { items: Product[]; total: number; pages: number } {
  const words = lq.q.toLowerCase().split(/\s+/).filter(Boolean).map((w) => w.replace(/[^a-z0-9-]/g, '')).filter(Boolean);
  let items = products.filter((p) => {
    if (lq.category && p.category !== lq.category) return false;
    if (lq.brand && p.brand !== lq.brand) return false;
    if (lq.color && !p.colors.includes(lq.color)) return false;
    if (!Number.isNaN(lq.maxPrice) && p.price > lq.maxPrice * 100) return false;
    if (lq.inStock && !p.inStock) return false;
    const hay = `${p.name} ${p.brand} ${p.category.replace(/-/g, ' ')} ${p.colors.join(' ')}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  if (lq.sort === 'price_asc') items = [...items].sort((a, b) => a.price - b.price || a.id - b.id);
  else if (lq.sort === 'price_desc') items = [...items].sort((a, b) => b.price - a.price || a.id - b.id);
  else if (lq.sort === 'rating') items = [...items].sort((a, b) => b.rating - a.rating || a.id - b.id);
  const total = items.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(lq.page, pages);
  return { items: items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), total, pages };
}
