/**
 * The calendar's views of many events: the month (a grid, a list of days or day cards, beside the
 * variant's distractor boxes), the day's agenda (a list, a table or cards), and search results.
 */
import { html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { MONTHS, WEEKDAYS, addDays, daysIn, iso, longDate, weekday } from '../common/dates.ts';
import { timeLabel, type CalEvent } from './data.ts';
import { calPage, eventLink, type Ctx } from './chrome.ts';
import { fill, type SectionKey, type Variant } from './variant.ts';

export function sorted(events: CalEvent[]): CalEvent[] {
  return [...events].sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start) || a.id - b.id);
}

function eventsOn(ctx: Ctx, date: string): CalEvent[] {
  return sorted(ctx.state.events.filter((e) => e.date === date));
}

function notice(text?: string): Raw | string {
  return text ? html`<p class="notice" role="status">${text}</p>` : '';
}

// ---- the month ----

function weekdayName(v: Variant, wd: number): string {
  const name = WEEKDAYS[wd];
  return v.weekdayStyle === 'long' ? name : name.slice(0, v.weekdayStyle === 'short' ? 3 : 2);
}

/** A day's link, named by its long date in every layout (the text shown differs). */
function dayLink(ctx: Ctx, date: string, text: string): Raw {
  return html`<a class="daynum" href="${hrefs(ctx)(`/day/${date}`)}" aria-label="${longDate(date)}"${date === ctx.state.today ? html` aria-current="date"` : ''}>${text}</a>`;
}

function dayEvents(ctx: Ctx, date: string): Raw | string {
  const evs = eventsOn(ctx, date);
  return evs.length ? html`<ul class="cal-events">${evs.map((e) => html`<li>${eventLink(ctx, e)}</li>`)}</ul>` : '';
}

function monthDates(y: number, m: number): string[] {
  return Array.from({ length: daysIn(y, m) }, (_, i) => iso(y, m, i + 1));
}

/** Weeks as table rows, starting on the variant's first day of the week. */
function monthGrid(ctx: Ctx, y: number, m: number): Raw {
  const v = ctx.state.variant;
  const firstDay = v.weekStart === 'mon' ? 1 : 0;
  const cells: Array<Raw | null> = Array.from({ length: (weekday(iso(y, m, 1)) - firstDay + 7) % 7 }, () => null);
  for (const date of monthDates(y, m)) cells.push(html`${dayLink(ctx, date, String(Number(date.slice(8))))}${dayEvents(ctx, date)}`);
  while (cells.length % 7) cells.push(null);
  const weeks: Array<Array<Raw | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return html`<table class="month">
<thead><tr>${Array.from({ length: 7 }, (_, i) => html`<th scope="col">${weekdayName(v, (firstDay + i) % 7)}</th>`)}</tr></thead>
<tbody>${weeks.map((w) => html`<tr>${w.map((c) => html`<td>${c ?? ''}</td>`)}</tr>`)}</tbody>
</table>`;
}

function monthList(ctx: Ctx, y: number, m: number): Raw {
  const v = ctx.state.variant;
  return html`<ol class="month-list">${monthDates(y, m).map((date) => html`<li><h2>${dayLink(ctx, date, `${weekdayName(v, weekday(date))} ${Number(date.slice(8))}`)}</h2>${dayEvents(ctx, date)}</li>`)}</ol>`;
}

function monthCards(ctx: Ctx, y: number, m: number): Raw {
  const v = ctx.state.variant;
  return html`<div class="month-cards">${monthDates(y, m).map((date) => html`<div class="day-card">${dayLink(ctx, date, `${Number(date.slice(8))} ${weekdayName(v, weekday(date))}`)}${dayEvents(ctx, date)}</div>`)}</div>`;
}

const MONTH_VIEWS: Record<Variant['monthView'], (ctx: Ctx, y: number, m: number) => Raw> = { grid: monthGrid, list: monthList, cards: monthCards };

function monthSection(ctx: Ctx, ym: string): Raw {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const [y, m] = ym.split('-').map(Number);
  const first = iso(y, m, 1);
  const prev = addDays(first, -1).slice(0, 7);
  const next = addDays(first, daysIn(y, m)).slice(0, 7);
  return html`<section class="cal-month"><div class="month-head"><a href="${href(`/month/${prev}`)}">${w.prevMonth}</a><h1>${MONTHS[m - 1]} ${y}</h1><a href="${href(`/month/${next}`)}">${w.nextMonth}</a></div>
${MONTH_VIEWS[ctx.state.variant.monthView](ctx, y, m)}</section>`;
}

/** Distractor boxes: nothing in them bears on any task. */
const BOXES: Record<Exclude<SectionKey, 'month'>, (ctx: Ctx) => Raw> = {
  tip: () => html`<aside class="cal-box" aria-labelledby="h-tip"><h2 id="h-tip">Tip</h2><p>Colour-code your calendar from the settings of your organisation's account.</p></aside>`,
  sync: (ctx) => html`<aside class="cal-box" aria-labelledby="h-sync"><h2 id="h-sync">Your calendar on your phone</h2><p>Get reminders wherever you are.</p><p><a href="${hrefs(ctx)('/sync')}">Set up phone sync</a></p></aside>`,
  weather: () => html`<aside class="cal-box" aria-labelledby="h-weather"><h2 id="h-weather">Weather this week</h2><p>Mostly dry and mild, with a chance of showers midweek.</p></aside>`,
};

export function monthPage(ctx: Ctx, ym: string, note?: string): string {
  const [y, m] = ym.split('-').map(Number);
  const parts = ctx.state.variant.sections.map((k) => (k === 'month' ? monthSection(ctx, ym) : BOXES[k](ctx)));
  return calPage(ctx, `${MONTHS[m - 1]} ${y}`, html`${notice(note)}${parts}`);
}

// ---- the day ----

function agenda(ctx: Ctx, evs: CalEvent[]): Raw {
  const v = ctx.state.variant;
  const w = v.words;
  const until = (e: CalEvent) => fill(w.until, { time: timeLabel(e.end) });
  if (v.dayView === 'table') {
    return html`<table class="cart agenda-table"><thead><tr><th scope="col">${w.time}</th><th scope="col">${w.title}</th><th scope="col">${w.end}</th><th scope="col">${w.location}</th></tr></thead>
<tbody>${evs.map((e) => html`<tr><td>${timeLabel(e.start)}</td><td>${eventLink(ctx, e)}</td><td>${timeLabel(e.end)}</td><td>${e.location}</td></tr>`)}</tbody></table>`;
  }
  if (v.dayView === 'cards') return html`<ul class="agenda-cards">${evs.map((e) => html`<li><h2>${eventLink(ctx, e)}</h2><p class="meta">${until(e)}</p><p class="meta">${e.location}</p></li>`)}</ul>`;
  return html`<ul class="agenda">${evs.map((e) => html`<li>${eventLink(ctx, e)} <span class="meta">${until(e)} · ${e.location}</span></li>`)}</ul>`;
}

export function dayPage(ctx: Ctx, date: string, note?: string): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const evs = eventsOn(ctx, date);
  const button = html`<p><a class="button primary" href="${href('/event/new', { date })}">${w.newOnDay}</a></p>`;
  return calPage(
    ctx,
    longDate(date),
    html`<p><a href="${href(`/month/${date.slice(0, 7)}`)}">${w.backToMonth}</a> · <a href="${href(`/day/${addDays(date, -1)}`)}">${w.prevDay}</a> · <a href="${href(`/day/${addDays(date, 1)}`)}">${w.nextDay}</a></p>
<h1>${longDate(date)}</h1>
${notice(note)}
${v.newButton === 'top' ? button : ''}
${evs.length ? agenda(ctx, evs) : html`<p>${w.emptyDay}</p>`}
${v.newButton === 'bottom' ? button : ''}`,
  );
}

// ---- search ----

export function searchPage(ctx: Ctx, q: string): string {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const hits = words.length ? sorted(ctx.state.events.filter((e) => words.every((w) => `${e.title} ${e.location} ${e.notes}`.toLowerCase().includes(w)))) : [];
  return calPage(
    ctx,
    ctx.state.variant.words.searchButton,
    html`<h1>${q ? `Events matching "${q}"` : ctx.state.variant.words.searchBox}</h1>
${hits.length ? html`<ul class="agenda">${hits.map((e) => html`<li>${eventLink(ctx, e)} <span class="meta">${longDate(e.date)}</span></li>`)}</ul>` : html`<p>${q ? 'No events match.' : 'Type a word from an event title or location.'}</p>`}`,
    q,
  );
}
