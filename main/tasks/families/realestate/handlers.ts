/** Routes of the real-estate site: search, detail and the distractors' pages (GET); save and tour requests (POST, then redirect). */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { html } from '../common/html.ts';
import { mixSeed } from '../../../common/rng.ts';
import { hrefs } from '../common/site.ts';
import { addDays, dayMonthYear, parseDate } from '../common/dates.ts';
import { TOUR_TIMES, timeLabel } from './data.ts';
import { infoPage, type Ctx } from './chrome.ts';
import { homePage, listPage } from './pages.ts';
import { detailPage, simpleList, tourPage, type TourForm } from './pages-detail.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;
const EMAIL_RE = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;
const empty = (): TourForm => ({ date: '', time: '', name: '', email: '', phone: '', errors: {} });

export function handleRealEstate(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const w = s.variant.words;
  const href = hrefs(ctx);
  const hm = req.path.match(/^\/home\/(\d+)(\/save|\/tour)?$/);
  const home = hm ? s.homes.find((h) => h.id === Number(hm[1])) : undefined;
  if (hm && !home) return { kind: 'not_found' };
  if (req.method === 'GET') {
    if (req.path === '/') return page(homePage(ctx));
    if (req.path === '/homes') return page(listPage(ctx, req));
    if (home && !hm![2]) return page(detailPage(ctx, home, empty(), req.query.get('saved') === '1' ? 'Saved to your homes.' : req.query.get('saved') === '0' ? 'Removed from your saved homes.' : undefined));
    const tm = req.path.match(/^\/tour\/([A-Z0-9-]+)$/);
    if (tm) {
      const t = s.tours.find((x) => x.code === tm[1]);
      return t ? page(tourPage(ctx, t)) : { kind: 'not_found' };
    }
    if (req.path === '/saved') {
      const hs = s.homes.filter((h) => s.saved.includes(h.id));
      return page(simpleList(ctx, w.navSaved, hs.length ? html`<ul>${hs.map((h) => html`<li><a href="${href(`/home/${h.id}`)}">${h.address}, ${h.city}</a></li>`)}</ul>` : html`<p>No saved homes yet.</p>`));
    }
    if (req.path === '/tours') {
      return page(simpleList(ctx, w.navTours, s.tours.length ? html`<ul>${s.tours.map((t) => html`<li><a href="${href(`/tour/${t.code}`)}">${s.homes.find((h) => h.id === t.home)?.address}: ${dayMonthYear(t.date)} at ${timeLabel(t.time)}</a></li>`)}</ul>` : html`<p>No tours requested yet.</p>`));
    }
    const info = infoPage(ctx, req);
    return info ? page(info) : { kind: 'not_found' };
  }
  if (home && hm![2] === '/save') {
    const was = s.saved.includes(home.id);
    s.saved = was ? s.saved.filter((x) => x !== home.id) : [...s.saved, home.id];
    return { kind: 'redirect', location: `/home/${home.id}?saved=${was ? 0 : 1}` };
  }
  if (home && hm![2] === '/tour') {
    const g = (k: string) => (req.form.get(k) ?? '').trim();
    const f: TourForm = { date: g('date'), time: g('time'), name: g('name'), email: g('email'), phone: g('phone'), errors: {} };
    const date = parseDate(f.date);
    if (!f.date) f.errors.date = 'Choose a tour date.';
    else if (!date) f.errors.date = 'Enter the date as YYYY-MM-DD.';
    else if (date <= s.today) f.errors.date = 'Tours can be booked from tomorrow on.';
    else if (date > addDays(s.today, 30)) f.errors.date = 'Tours can be booked up to 30 days ahead.';
    if (!TOUR_TIMES.includes(f.time)) f.errors.time = 'Choose a tour time.';
    if (!f.name) f.errors.name = 'Enter your name.';
    else if (!NAME_RE.test(f.name)) f.errors.name = 'Your name may contain only letters, spaces, hyphens and apostrophes.';
    if (!EMAIL_RE.test(f.email)) f.errors.email = 'Enter a valid email address.';
    if (!/^[\d\s()+.\-]+$/.test(f.phone) || f.phone.replace(/\D/g, '').length !== 10) f.errors.phone = 'Enter a 10-digit phone number.';
    if (Object.keys(f.errors).length || !date) return page(detailPage(ctx, home, f));
    const code = `TR-${(mixSeed(ctx.seed, 'tour', s.tours.length) % 90000) + 10000}`;
    s.tours.push({ code, home: home.id, date, time: f.time, name: f.name, email: f.email, phone: f.phone });
    return { kind: 'redirect', location: `/tour/${code}` };
  }
  return { kind: 'not_found' };
}
