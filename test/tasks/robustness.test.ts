/** Sites must answer junk input (missing fields, wrong types, unknown ids) with a page, never a 500. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer } from '../../main/tasks/server.ts';
import { startServer } from './helpers/server.ts';
import { sendJunk } from './helpers/junk-requests.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const JUNK = ['', 'abc', '-1', '0', '99999999999', '1e9', '<b>x</b>', '../../etc', '%', ' '];

const ROUTES: Record<string, { get: string[]; post: Array<[string, string[]]> }> = {
  shop: {
    get: ['/', '/search', '/product/{x}', '/cart', '/checkout', '/order/{x}', '/nope'],
    post: [['/cart/add', ['product', 'color', 'size', 'qty']], ['/cart/update', ['line', 'qty']], ['/cart/remove', ['line']], ['/checkout', ['name', 'street', 'city', 'postal', 'shipping']], ['/cookies', ['return', 'choice']]],
  },
  flights: {
    get: ['/', '/results', '/passengers/{x}', '/booking/{x}', '/trips', '/help'],
    post: [['/select', ['flight', 'from', 'to', 'date', 'passengers', 'class']], ['/passengers/{x}', ['first', 'last']]],
  },
  webmail: {
    get: ['/', '/folder/{x}', '/folder/inbox', '/search', '/message/{x}', '/compose'],
    post: [['/message/{x}/star', ['return']], ['/message/{x}/move', ['folder']], ['/compose', ['to', 'subject', 'body', 'reply_to']]],
  },
  hotels: {
    get: ['/', '/search', '/city/{x}', '/hotel/{x}', '/book', '/confirmation/{x}', '/trips', '/help'],
    post: [['/book', ['hotel', 'room', 'checkin', 'checkout', 'guests', 'first', 'last', 'email', 'agree']], ['/cookies', ['return', 'choice']]],
  },
  jobs: {
    get: ['/', '/jobs', '/job/{x}', '/job/{x}/apply', '/application/{x}', '/saved', '/applications'],
    post: [['/job/{x}/save', ['x']], ['/job/{x}/apply', ['name', 'email', 'phone', 'years', 'authorized', 'source', 'cover', 'agree']], ['/cookies', ['return', 'choice']]],
  },
  calendar: {
    get: ['/', '/month/{x}', '/day/{x}', '/event/{x}', '/event/{x}/edit', '/event/{x}/delete', '/event/new', '/search'],
    post: [['/event/new', ['title', 'date', 'start', 'end', 'location', 'notes']], ['/event/{x}/edit', ['title', 'date', 'start', 'end']], ['/event/{x}/delete', ['x']]],
  },
  wiki: {
    get: ['/', '/search', '/wiki/{x}', '/countries', '/help'],
    post: [['/wiki/{x}', ['x']]],
  },
  realestate: {
    get: ['/', '/homes', '/home/{x}', '/tour/{x}', '/saved', '/tours'],
    post: [['/home/{x}/save', ['x']], ['/home/{x}/tour', ['date', 'time', 'name', 'email', 'phone']]],
  },
  compare: {
    get: ['/', '/s/a/', '/s/b/search', '/s/a/p/{x}', '/s/b/checkout/{x}', '/s/a/order/{x}', '/s/b/orders', '/s/c/'],
    post: [['/s/a/checkout/{x}', ['qty', 'name', 'street', 'city', 'zip']], ['/s/b/checkout/{x}', ['qty', 'name', 'street', 'city', 'zip']]],
  },
  tickets: {
    get: ['/', '/events', '/event/{x}', '/event/{x}/seats', '/event/{x}/checkout', '/order/{x}', '/orders'],
    post: [['/event/{x}/seats', ['seat', 'seat']], ['/event/{x}/checkout', ['name', 'email', 'delivery', 'agree']]],
  },
  factbook: {
    get: ['/', '/about', '/search', '/r/{x}', '/nope'],
    post: [['/notice', ['return', 'choice']], ['/r/{x}', ['x']]],
  },
  restaurants: {
    get: ['/', '/search', '/restaurant/{x}', '/reserve', '/reservation/{x}', '/reservations', '/account'],
    post: [['/reserve', ['restaurant', 'date', 'party', 'time', 'name', 'phone', 'occasion']], ['/promo', ['return', 'choice']], ['/membership/cancel', ['x']]],
  },
};

const QUERY_KEYS = ['city', 'checkin', 'checkout', 'guests', 'stars', 'max_price', 'breakfast', 'hotel', 'room', 'cuisine', 'area', 'price', 'outdoor', 'party', 'restaurant', 'time', 'location', 'type', 'level', 'min_salary', 'remote', 'deleted', 'saved', 'beds', 'city', 'category', 'q', 'page', 'category', 'brand', 'color', 'max_price', 'in_stock', 'sort', 'from', 'to', 'date', 'pick', 'cal', 'passengers', 'class', 'nonstop', 'reply', 'moved', 'sent'];

for (const [family, routes] of Object.entries(ROUTES)) {
  test(`${family}: junk requests get a page or a redirect, never a server error`, async () => {
    const inst = server.createInstance(family, 10400, { tier: 3 });
    const base = inst.ctx.baseUrl;
    // Real ids too, so handlers get past their lookups and meet junk fields.
    const st = inst.ctx.state as any;
    const ids = family === 'shop' ? [String(st.products[0].id), '0'] : family === 'webmail' ? [String(st.messages[0].id), 'archive'] : family === 'hotels' ? [String(st.hotels[0].id), st.cities[0], '%E0%A4%A'] : family === 'restaurants' ? [String(st.restaurants[0].id)] : family === 'jobs' ? [String(st.jobs[0].id)] : family === 'tickets' ? [String(st.events[0].id)] : family === 'compare' ? [String(st.stores[0].items[0].id), String(st.stores[1].items.find((i: { inStock: boolean }) => i.inStock).id)] : family === 'realestate' ? [String(st.homes[0].id)] : family === 'factbook' ? [st.records[0].name.replace(/ /g, '_'), '%E0%A4%A'] : family === 'wiki' ? [st.cities[0].slug, st.countries[0].name, '%E0%A4%A', 'Main_Page'] : family === 'calendar' ? [String(st.events[0].id), st.today, st.today.slice(0, 7), '2026-02-30', '0000-00'] : [];
    if (family === 'flights') {
      const g = st.goal;
      await fetch(`${base}/select`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ flight: g.flight, from: g.from, to: g.to, date: g.date, passengers: '2', class: 'Business' }).toString(), redirect: 'manual' });
      ids.push(st.drafts[0].id);
    }
    await sendJunk(base, { xs: [...JUNK, ...ids], values: JUNK, gets: routes.get, posts: routes.post, queryKeys: QUERY_KEYS });
    // And the checker still answers on whatever state that left.
    assert.equal(typeof inst.family.check(inst.ctx).success, 'boolean');
  });
}
