/**
 * Flight site pages for searching: the home page (the search form with its calendar, and any
 * distractor boxes, in the variant's order) and the results, listed the variant's way.
 */
import type { SiteRequest } from '../../types.ts';
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { AIRPORTS, FARE_CLASSES, airportLabel, durationText, flightsFor, hhmm, priceFor, type FareClass, type Flight } from './data.ts';
import { MONTHS } from '../common/dates.ts';
import { addDays, daysIn, iso, longDate, weekday } from '../common/dates.ts';
import { errorSummary, fieldError, flightsPage, invalid, type Ctx } from './chrome.ts';
import { fill, selectFlightLabel, sortLabel, type FilterControl, type SearchField, type SectionKey, type SortKey } from './variant.ts';

export interface SearchForm {
  from: string;
  to: string;
  date: string;
  passengers: string;
  fareClass: string;
  /** Month the calendar shows, YYYY-MM. */
  cal?: string;
  errors?: Partial<Record<'from' | 'to' | 'date' | 'passengers' | 'fareClass', string>>;
}

function calendar(ctx: Ctx, f: SearchForm): Raw {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const today = ctx.state.today;
  const shown = f.cal && /^\d{4}-\d{2}$/.test(f.cal) ? f.cal : /^\d{4}-\d{2}-\d{2}$/.test(f.date) ? f.date.slice(0, 7) : today.slice(0, 7);
  const [y, m] = shown.split('-').map(Number);
  const first = iso(y, m, 1);
  const prev = addDays(first, -1).slice(0, 7);
  const next = addDays(first, daysIn(y, m)).slice(0, 7);
  const cells: Raw[] = [];
  for (let i = 0; i < weekday(first); i++) cells.push(html`<span class="blank"></span>`);
  for (let d = 1; d <= daysIn(y, m); d++) {
    const day = iso(y, m, d);
    // Submit buttons so the widget works without script; flights.js turns them into in-page pickers.
    cells.push(
      html`<button type="submit" class="day" name="pick" value="${day}" formaction="${href('/')}" formmethod="get" aria-label="${longDate(day)}" aria-pressed="${day === f.date ? 'true' : 'false'}"${attr('disabled', day < today)}>${d}</button>`,
    );
  }
  return html`<div class="calendar" role="group" aria-label="${w.calendar}">
<div class="cal-head">
<button type="submit" name="cal" value="${prev}" formaction="${href('/')}" formmethod="get" aria-label="${w.prevMonth}"${attr('disabled', prev < today.slice(0, 7))}>‹</button>
<span class="cal-month">${MONTHS[m - 1]} ${y}</span>
<button type="submit" name="cal" value="${next}" formaction="${href('/')}" formmethod="get" aria-label="${w.nextMonth}">›</button>
</div>
<div class="cal-grid">${['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'].map((d) => html`<span class="dow" aria-hidden="true">${d}</span>`)}${cells}</div>
</div>`;
}

/** One field of the search form. The date input keeps id "date": flights.js fills it from the calendar. */
function searchField(ctx: Ctx, f: SearchForm, k: SearchField): Raw {
  const w = ctx.state.variant.words;
  const e = f.errors ?? {};
  const airportOptions = (sel: string) => html`<option value="">Select an airport</option>${AIRPORTS.map((a) => html`<option value="${a.code}"${attr('selected', a.code === sel)}>${airportLabel(a.code)}</option>`)}`;
  switch (k) {
    case 'from':
    case 'to':
      return html`<div class="field"><label for="${k}">${w[k]}</label><select id="${k}" name="${k}"${invalid(e[k], k)}>${airportOptions(f[k])}</select>${fieldError(e[k], k)}</div>`;
    case 'date':
      return html`<div class="field"><label for="date">${w.date}</label>
<input id="date" name="date" type="text" inputmode="numeric" placeholder="YYYY-MM-DD" value="${f.date}"${invalid(e.date, 'date')}>
${fieldError(e.date, 'date')}</div>
${calendar(ctx, f)}`;
    case 'passengers':
      return html`<div class="field"><label for="passengers">${w.passengers}</label><input id="passengers" name="passengers" type="number" min="1" max="6" value="${f.passengers || '1'}"${invalid(e.passengers, 'passengers')}>${fieldError(e.passengers, 'passengers')}</div>`;
    case 'fareClass':
      return html`<div class="field"><label for="class">${w.fareClass}</label><select id="class" name="class">${FARE_CLASSES.map((c) => html`<option value="${c}"${attr('selected', c === f.fareClass)}>${c}</option>`)}</select></div>`;
  }
}

function searchSection(ctx: Ctx, f: SearchForm): Raw {
  const v = ctx.state.variant;
  return html`${errorSummary(Object.values(f.errors ?? {}))}
<form class="search-flights" method="get" action="${hrefs(ctx)('/results')}" novalidate>
${v.searchFields.map((k) => searchField(ctx, f, k))}
<button type="submit" class="primary">${v.words.searchButton}</button>
</form>`;
}

/** A distractor: a members' offer that books nothing and leads to a page of the site. */
function promoSection(ctx: Ctx): Raw {
  return html`<section class="flights-box promo" aria-labelledby="h-promo"><h2 id="h-promo">Members earn double miles this month</h2>
<p>Join ${ctx.state.siteName} Miles in the app and collect miles on every trip.</p>
<p><a href="${hrefs(ctx)('/deals')}">See current deals</a></p></section>`;
}

/** A distractor: travel advice with nothing to act on. */
function tipsSection(): Raw {
  return html`<section class="flights-box tips" aria-labelledby="h-tips"><h2 id="h-tips">Before you fly</h2>
<ul><li>Check in online from 24 hours before departure.</li><li>Arrive at the airport two hours before a domestic flight.</li></ul></section>`;
}

export function searchPage(ctx: Ctx, req: SiteRequest, f: SearchForm): string {
  const w = ctx.state.variant.words;
  const sections: Record<SectionKey, () => Raw> = { search: () => searchSection(ctx, f), promo: () => promoSection(ctx), tips: tipsSection };
  return flightsPage(ctx, req, w.navSearch, html`<h1>${w.searchHeading}</h1>
${ctx.state.variant.sections.map((k) => sections[k]())}`);
}

/** The sort orders the results page offers (the value in the URL; names come from the variant). */
export const SORTS: readonly SortKey[] = ['price', 'duration', 'departure'];

export interface ResultsQuery {
  from: string;
  to: string;
  date: string;
  passengers: number;
  fareClass: FareClass;
  sort: string;
  nonstop: boolean;
}

export function sortFlights(flights: Flight[], sort: string): Flight[] {
  const key = sort === 'price' ? (f: Flight) => f.basePrice : sort === 'duration' ? (f: Flight) => f.duration : (f: Flight) => f.depart;
  return [...flights].sort((a, b) => key(a) - key(b) || a.depart - b.depart);
}

/** What a result shows, computed once for every layout. */
interface Row {
  f: Flight;
  price: number;
  depart: string;
  arrive: Raw;
  stops: string;
  select: Raw;
}

function resultRow(ctx: Ctx, r: ResultsQuery, f: Flight): Row {
  const w = ctx.state.variant.words;
  const price = priceFor(f, r.fareClass);
  const end = f.depart + f.duration;
  const hidden = { flight: f.number, from: r.from, to: r.to, passengers: String(r.passengers), class: r.fareClass, date: r.date };
  return {
    f,
    price,
    depart: hhmm(f.depart),
    arrive: html`${hhmm(end)}${end >= 1440 ? html`<sup>+1</sup>` : ''}`,
    stops: f.stops === 0 ? 'Nonstop' : `${f.stops} stop${f.stops > 1 ? 's' : ''} (${f.via.join(', ')})`,
    select: html`<form method="post" action="${hrefs(ctx)('/select')}">
${Object.entries(hidden).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<button type="submit" aria-label="${selectFlightLabel(w, f.number, hhmm(f.depart), price)}">${w.selectText}</button>
</form>`,
  };
}

/** The flights in the variant's layout: cards, a table, or one line each. */
function resultList(ctx: Ctx, rows: Row[]): Raw {
  const w = ctx.state.variant.words;
  const fare = (x: Row) => `$${x.price.toLocaleString('en-US')}`;
  switch (ctx.state.variant.resultsView) {
    case 'cards':
      return html`<ol class="flights">${rows.map(
        (x) => html`<li class="flight">
<div class="times"><strong>${x.depart}</strong> – <strong>${x.arrive}</strong></div>
<div class="info"><p>${x.f.airline} · ${x.f.number}</p><p>${durationText(x.f.duration)} · ${x.stops}</p></div>
<p class="price">${fare(x)} <span class="per">${w.perPassenger}</span></p>
${x.select}
</li>`,
      )}</ol>`;
    case 'table':
      return html`<table class="flights-table"><thead><tr><th scope="col">Departs</th><th scope="col">Arrives</th><th scope="col">Flight</th><th scope="col">Duration</th><th scope="col">Stops</th><th scope="col">Fare (${w.perPassenger})</th><th scope="col"><span class="sr-only">Flight choice</span></th></tr></thead>
<tbody>${rows.map((x) => html`<tr><td>${x.depart}</td><td>${x.arrive}</td><td>${x.f.airline} ${x.f.number}</td><td>${durationText(x.f.duration)}</td><td>${x.stops}</td><td class="money">${fare(x)}</td><td>${x.select}</td></tr>`)}</tbody></table>`;
    case 'list':
      return html`<ul class="flight-lines">${rows.map((x) => html`<li><span>${x.depart} → ${x.arrive} · ${x.f.airline} ${x.f.number} · ${durationText(x.f.duration)} · ${x.stops} · <strong>${fare(x)}</strong> ${w.perPassenger}</span>${x.select}</li>`)}</ul>`;
  }
}

function filterForm(ctx: Ctx, r: ResultsQuery): Raw {
  const v = ctx.state.variant;
  const w = v.words;
  const keep = { from: r.from, to: r.to, passengers: String(r.passengers), class: r.fareClass, date: r.date };
  const controls: Record<FilterControl, Raw> = {
    sort: html`<label for="sort">${w.sortBy}</label>
<select id="sort" name="sort">${v.sorts.map((k) => html`<option value="${k}"${attr('selected', k === r.sort)}>${sortLabel(w, k)}</option>`)}</select>`,
    nonstop: html`<label class="check"><input type="checkbox" name="nonstop" value="1"${attr('checked', r.nonstop)}> ${w.nonstop}</label>`,
  };
  return html`<form class="filters" method="get" action="${hrefs(ctx)('/results')}" aria-label="Sort and filter">
${Object.entries(keep).map(([k, val]) => html`<input type="hidden" name="${k}" value="${val}">`)}
${v.filters.map((k) => controls[k])}
<button type="submit">${w.update}</button>
</form>`;
}

export function resultsPage(ctx: Ctx, req: SiteRequest, r: ResultsQuery): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  let flights = flightsFor(ctx.seed, r.from, r.to, r.date);
  if (r.nonstop) flights = flights.filter((f) => f.stops === 0);
  flights = sortFlights(flights, r.sort);
  const keep = { from: r.from, to: r.to, passengers: String(r.passengers), class: r.fareClass };
  const dayLink = (n: number) => href('/results', { ...keep, date: addDays(r.date, n), sort: r.sort, nonstop: r.nonstop ? '1' : undefined });
  const count = fill(w.found, { n: flights.length, flights: flights.length === 1 ? 'flight' : 'flights' });
  const list = html`<p role="status">${count}</p>
${flights.length ? resultList(ctx, flights.map((f) => resultRow(ctx, r, f))) : html`<p>No flights match. Try another date or remove the nonstop filter.</p>`}`;
  return flightsPage(
    ctx,
    req,
    'Flight results',
    html`<h1>${airportLabel(r.from)} to ${airportLabel(r.to)}</h1>
<p class="summary">${longDate(r.date)} · ${r.passengers} ${r.passengers === 1 ? 'passenger' : 'passengers'} · ${r.fareClass} · <a href="${href('/', { ...keep, date: r.date })}">${w.changeSearch}</a></p>
<nav class="days" aria-label="Nearby dates"><a href="${dayLink(-1)}">${w.prevDay}</a> <a href="${dayLink(1)}">${w.nextDay}</a></nav>
${v.filtersPlacement === 'side' ? html`<div class="results-side">${filterForm(ctx, r)}<div>${list}</div></div>` : html`${filterForm(ctx, r)}${list}`}`,
  );
}
