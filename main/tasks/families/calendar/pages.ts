/** Calendar pages: month grid, day agenda, event detail, event form, delete confirmation, search. */
import type { InstanceContext } from '../../types.ts';
import { attr, html, layout, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { MONTHS } from '../common/dates.ts';
import { addDays, dayMonthYear, daysIn, iso, longDate, weekday } from '../common/dates.ts';
import { TIMES, timeLabel, type CalEvent, type CalendarState } from './data.ts';

export type Ctx = InstanceContext<CalendarState>;

export function eventLabel(e: CalEvent): string {
  return `${timeLabel(e.start)} ${e.title}, ${dayMonthYear(e.date)}`;
}

export function calPage(ctx: Ctx, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  return layout({
    title,
    siteName: 'Calendar',
    theme: 'theme-cal',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="Search events" placeholder="Search events">
<button type="submit">Search</button>
</form>
<span class="me">${s.owner}</span>`,
    nav: html`<ul><li><a href="${href(`/month/${s.today.slice(0, 7)}`)}">This month</a></li><li><a href="${href(`/day/${s.today}`)}">Today</a></li><li><a href="${href('/event/new')}">New event</a></li></ul>`,
    main,
  });
}

function sorted(events: CalEvent[]): CalEvent[] {
  return [...events].sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start) || a.id - b.id);
}

function eventLink(ctx: Ctx, e: CalEvent): Raw {
  return html`<a href="${hrefs(ctx)(`/event/${e.id}`)}" aria-label="${eventLabel(e)}">${timeLabel(e.start)} ${e.title}</a>`;
}

export function monthPage(ctx: Ctx, ym: string, notice?: string): string {
  const href = hrefs(ctx);
  const [y, m] = ym.split('-').map(Number);
  const first = iso(y, m, 1);
  const prev = addDays(first, -1).slice(0, 7);
  const next = addDays(first, daysIn(y, m)).slice(0, 7);
  const cells: Array<Raw | null> = [];
  for (let i = 0; i < weekday(first); i++) cells.push(null);
  for (let d = 1; d <= daysIn(y, m); d++) {
    const date = iso(y, m, d);
    const evs = sorted(ctx.state.events.filter((e) => e.date === date));
    cells.push(html`<a class="daynum" href="${href(`/day/${date}`)}" aria-label="${longDate(date)}"${date === ctx.state.today ? html` aria-current="date"` : ''}>${d}</a>${evs.length ? html`<ul class="cal-events">${evs.map((e) => html`<li>${eventLink(ctx, e)}</li>`)}</ul>` : ''}`);
  }
  while (cells.length % 7) cells.push(null);
  const weeks: Array<Array<Raw | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return calPage(
    ctx,
    `${MONTHS[m - 1]} ${y}`,
    html`<div class="month-head"><a href="${href(`/month/${prev}`)}">Previous month</a><h1>${MONTHS[m - 1]} ${y}</h1><a href="${href(`/month/${next}`)}">Next month</a></div>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<table class="month">
<thead><tr>${['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((w) => html`<th scope="col">${w.slice(0, 3)}</th>`)}</tr></thead>
<tbody>${weeks.map((w) => html`<tr>${w.map((c) => html`<td>${c ?? ''}</td>`)}</tr>`)}</tbody>
</table>`,
  );
}

export function dayPage(ctx: Ctx, date: string, notice?: string): string {
  const href = hrefs(ctx);
  const evs = sorted(ctx.state.events.filter((e) => e.date === date));
  return calPage(
    ctx,
    longDate(date),
    html`<p><a href="${href(`/month/${date.slice(0, 7)}`)}">Back to month</a> · <a href="${href(`/day/${addDays(date, -1)}`)}">Previous day</a> · <a href="${href(`/day/${addDays(date, 1)}`)}">Next day</a></p>
<h1>${longDate(date)}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${evs.length ? html`<ul class="agenda">${evs.map((e) => html`<li>${eventLink(ctx, e)} <span class="meta">until ${timeLabel(e.end)} · ${e.location}</span></li>`)}</ul>` : html`<p>Nothing scheduled.</p>`}
<p><a class="button primary" href="${href('/event/new', { date })}">New event on this day</a></p>`,
  );
}

export function eventPage(ctx: Ctx, e: CalEvent, notice?: string): string {
  const href = hrefs(ctx);
  return calPage(
    ctx,
    e.title,
    html`<p><a href="${href(`/day/${e.date}`)}">Back to ${dayMonthYear(e.date)}</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<article class="event">
<h1>${e.title}</h1>
<dl class="headers">
<dt>Date</dt><dd>${longDate(e.date)}</dd>
<dt>Time</dt><dd>${timeLabel(e.start)} to ${timeLabel(e.end)}</dd>
<dt>Location</dt><dd>${e.location || 'None'}</dd>
${e.notes ? html`<dt>Notes</dt><dd>${e.notes}</dd>` : ''}
</dl>
<div class="toolbar"><a class="button" href="${href(`/event/${e.id}/edit`)}">Edit event</a> <a class="button" href="${href(`/event/${e.id}/delete`)}">Delete event</a></div>
</article>`,
  );
}

export function deletePage(ctx: Ctx, e: CalEvent): string {
  const href = hrefs(ctx);
  return calPage(
    ctx,
    `Delete ${e.title}?`,
    html`<h1>Delete this event?</h1>
<p>${e.title}, ${longDate(e.date)}, ${timeLabel(e.start)} to ${timeLabel(e.end)}. This cannot be undone.</p>
<form method="post" action="${href(`/event/${e.id}/delete`)}" class="inline"><button type="submit" class="primary">Yes, delete</button></form>
<a href="${href(`/event/${e.id}`)}">Cancel</a>`,
  );
}

export interface EventForm {
  id?: number;
  title: string;
  date: string;
  start: string;
  end: string;
  location: string;
  notes: string;
  errors: Partial<Record<'title' | 'date' | 'end', string>>;
}

export function formPage(ctx: Ctx, f: EventForm): string {
  const href = hrefs(ctx);
  const action = f.id ? `/event/${f.id}/edit` : '/event/new';
  const errs = Object.values(f.errors);
  const inv = (k: keyof EventForm['errors']) => (f.errors[k] ? html` aria-invalid="true" aria-describedby="e-${k}-err"` : '');
  const err = (k: keyof EventForm['errors']) => (f.errors[k] ? html`<p class="field-error" id="e-${k}-err">${f.errors[k]}</p>` : '');
  const timeSel = (id: string, name: 'start' | 'end', label: string) =>
    html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${name}"${name === 'end' ? inv('end') : ''}>${TIMES.map((t) => html`<option value="${t}"${attr('selected', t === f[name])}>${timeLabel(t)}</option>`)}</select>${name === 'end' ? err('end') : ''}</div>`;
  return calPage(
    ctx,
    f.id ? 'Edit event' : 'New event',
    html`<h1>${f.id ? 'Edit event' : 'New event'}</h1>
${errs.length ? html`<div class="errors" role="alert"><p>The event was not saved:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(action)}" novalidate>
<div class="field"><label for="e-title">Title</label><input id="e-title" type="text" name="title" value="${f.title}"${inv('title')}>${err('title')}</div>
<div class="field"><label for="e-date">Date</label><input id="e-date" type="text" name="date" value="${f.date}" placeholder="YYYY-MM-DD"${inv('date')}>${err('date')}</div>
${timeSel('e-start', 'start', 'Start time')}
${timeSel('e-end', 'end', 'End time')}
<div class="field"><label for="e-location">Location (optional)</label><input id="e-location" type="text" name="location" value="${f.location}"></div>
<div class="field"><label for="e-notes">Notes (optional)</label><textarea id="e-notes" name="notes" rows="3">${f.notes}</textarea></div>
<button type="submit" class="primary">Save event</button>
<a href="${href(f.id ? `/event/${f.id}` : `/month/${ctx.state.today.slice(0, 7)}`)}">Cancel</a>
</form>`,
  );
}

export function searchPage(ctx: Ctx, q: string): string {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const hits = words.length ? sorted(ctx.state.events.filter((e) => words.every((w) => `${e.title} ${e.location} ${e.notes}`.toLowerCase().includes(w)))) : [];
  return calPage(
    ctx,
    'Search',
    html`<h1>${q ? `Events matching "${q}"` : 'Search events'}</h1>
${hits.length ? html`<ul class="agenda">${hits.map((e) => html`<li>${eventLink(ctx, e)} <span class="meta">${longDate(e.date)}</span></li>`)}</ul>` : html`<p>${q ? 'No events match.' : 'Type a word from an event title or location.'}</p>`}`,
    q,
  );
}
