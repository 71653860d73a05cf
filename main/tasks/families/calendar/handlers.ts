/** Routes of the calendar: month, day, event, search and the distractor pages (GET); create, edit, delete (POST, then redirect). */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { parseDate } from '../common/dates.ts';
import { TIMES, minutes } from './data.ts';
import { infoPage, type Ctx } from './chrome.ts';
import { dayPage, monthPage, searchPage } from './pages-views.ts';
import { deletePage, eventPage, formPage, type EventForm } from './pages-event.ts';
import { fill } from './variant.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });

function validMonth(ym: string): boolean {
  const m = ym.match(/^(\d{4})-(\d{2})$/);
  return !!m && Number(m[1]) >= 2000 && Number(m[1]) <= 2100 && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

export function handleCalendar(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const w = s.variant.words;
  const { path } = req;
  const em = path.match(/^\/event\/(\d+)(\/edit|\/delete)?$/);
  const ev = em ? s.events.find((e) => e.id === Number(em[1])) : undefined;
  if (em && !ev) return req.method === 'GET' ? page(monthPage(ctx, s.today.slice(0, 7), 'That event no longer exists.')) : { kind: 'redirect', location: '/' };
  if (req.method === 'GET') {
    if (path === '/') return { kind: 'redirect', location: `/month/${s.today.slice(0, 7)}` };
    const mm = path.match(/^\/month\/([\d-]+)$/);
    if (mm) return validMonth(mm[1]) ? page(monthPage(ctx, mm[1], req.query.get('deleted') ? fill(w.deleted, { title: req.query.get('deleted')! }) : undefined)) : { kind: 'not_found' };
    const dm = path.match(/^\/day\/([\d-]+)$/);
    if (dm) {
      const date = parseDate(dm[1]);
      return date && date === dm[1] && validMonth(date.slice(0, 7)) ? page(dayPage(ctx, date, req.query.get('saved') ? w.saved : undefined)) : { kind: 'not_found' };
    }
    if (path === '/search') return page(searchPage(ctx, (req.query.get('q') ?? '').trim()));
    if (path === '/event/new') {
      const date = parseDate(req.query.get('date') ?? '') ?? '';
      return page(formPage(ctx, { title: '', date, start: '09:00', end: '10:00', location: '', notes: '', errors: {} }));
    }
    if (ev && !em![2]) return page(eventPage(ctx, ev, req.query.get('saved') ? w.saved : undefined));
    if (ev && em![2] === '/edit') return page(formPage(ctx, { id: ev.id, title: ev.title, date: ev.date, start: ev.start, end: ev.end, location: ev.location, notes: ev.notes, errors: {} }));
    if (ev && em![2] === '/delete') return page(deletePage(ctx, ev));
    const info = infoPage(ctx, path);
    return info ? page(info) : { kind: 'not_found' };
  }
  if (ev && em![2] === '/delete') {
    s.events = s.events.filter((e) => e.id !== ev.id);
    return { kind: 'redirect', location: `/month/${ev.date.slice(0, 7)}?deleted=${encodeURIComponent(ev.title)}` };
  }
  if (path === '/event/new' || (ev && em![2] === '/edit')) {
    const f: EventForm = {
      id: ev?.id,
      title: (req.form.get('title') ?? '').trim(),
      date: (req.form.get('date') ?? '').trim(),
      start: req.form.get('start') ?? '',
      end: req.form.get('end') ?? '',
      location: (req.form.get('location') ?? '').trim(),
      notes: req.form.get('notes') ?? '',
      errors: {},
    };
    if (!f.title) f.errors.title = 'Give the event a title.';
    else if (f.title.length > 120) f.errors.title = 'Titles are limited to 120 characters.';
    const date = parseDate(f.date);
    if (!f.date) f.errors.date = 'Enter a date.';
    else if (!date || !validMonth(date.slice(0, 7))) f.errors.date = 'Enter the date as YYYY-MM-DD.';
    if (!TIMES.includes(f.start)) f.start = '09:00';
    if (!TIMES.includes(f.end) || minutes(f.end) <= minutes(f.start)) f.errors.end = 'The event must end after it starts.';
    if (Object.keys(f.errors).length || !date) return page(formPage(ctx, f));
    if (ev) Object.assign(ev, { title: f.title, date, start: f.start, end: f.end, location: f.location, notes: f.notes });
    else s.events.push({ id: s.nextId++, title: f.title, date, start: f.start, end: f.end, location: f.location, notes: f.notes });
    return { kind: 'redirect', location: `/day/${date}?saved=1` };
  }
  return { kind: 'not_found' };
}
