/** Flight site pages for searching: the common chrome, the search form with its calendar, and results. */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { attr, html, layout, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { AIRPORTS, FARE_CLASSES, airportLabel, durationText, flightsFor, hhmm, priceFor, type FareClass, type Flight, type FlightsState } from './data.ts';
import { MONTHS } from '../common/dates.ts';
import { addDays, daysIn, iso, longDate, weekday } from '../common/dates.ts';

export type Ctx = InstanceContext<FlightsState>;

export function flightsPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw): string {
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: 'theme-flights',
    homeHref: href('/'),
    nav: html`<ul><li><a href="${href('/')}">Search flights</a></li><li><a href="${href('/trips')}">My trips</a></li><li><a href="${href('/help')}">Help</a></li></ul>`,
    main,
    overlay: cookieBanner(ctx.state.ui, href, currentPath(req)),
    scripts: ['flights.js'],
  });
}

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
  return html`<div class="calendar" role="group" aria-label="Choose departure date">
<div class="cal-head">
<button type="submit" name="cal" value="${prev}" formaction="${href('/')}" formmethod="get" aria-label="Previous month"${attr('disabled', prev < today.slice(0, 7))}>‹</button>
<span class="cal-month">${MONTHS[m - 1]} ${y}</span>
<button type="submit" name="cal" value="${next}" formaction="${href('/')}" formmethod="get" aria-label="Next month">›</button>
</div>
<div class="cal-grid">${['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'].map((w) => html`<span class="dow" aria-hidden="true">${w}</span>`)}${cells}</div>
</div>`;
}

function err(msg: string | undefined, id: string): Raw | string {
  return msg ? html`<p class="field-error" id="${id}-err">${msg}</p>` : '';
}

function inv(msg: string | undefined, id: string): Raw | string {
  return msg ? html` aria-invalid="true" aria-describedby="${id}-err"` : '';
}

export function searchPage(ctx: Ctx, req: SiteRequest, f: SearchForm): string {
  const href = hrefs(ctx);
  const e = f.errors ?? {};
  const errs = Object.values(e);
  const airportOptions = (sel: string) => html`<option value="">Select an airport</option>${AIRPORTS.map((a) => html`<option value="${a.code}"${attr('selected', a.code === sel)}>${airportLabel(a.code)}</option>`)}`;
  return flightsPage(
    ctx,
    req,
    'Search flights',
    html`<h1>Where to next?</h1>
${errs.length ? html`<div class="errors" role="alert"><p>Please fix the following:</p><ul>${errs.map((x) => html`<li>${x}</li>`)}</ul></div>` : ''}
<form class="search-flights" method="get" action="${href('/results')}" novalidate>
<div class="row">
<div class="field"><label for="from">From</label><select id="from" name="from"${inv(e.from, 'from')}>${airportOptions(f.from)}</select>${err(e.from, 'from')}</div>
<div class="field"><label for="to">To</label><select id="to" name="to"${inv(e.to, 'to')}>${airportOptions(f.to)}</select>${err(e.to, 'to')}</div>
</div>
<div class="field"><label for="date">Departure date</label>
<input id="date" name="date" type="text" inputmode="numeric" placeholder="YYYY-MM-DD" value="${f.date}"${inv(e.date, 'date')}>
${err(e.date, 'date')}</div>
${calendar(ctx, f)}
<div class="row">
<div class="field"><label for="passengers">Passengers</label><input id="passengers" name="passengers" type="number" min="1" max="6" value="${f.passengers || '1'}"${inv(e.passengers, 'passengers')}>${err(e.passengers, 'passengers')}</div>
<div class="field"><label for="class">Fare class</label><select id="class" name="class">${FARE_CLASSES.map((c) => html`<option value="${c}"${attr('selected', c === f.fareClass)}>${c}</option>`)}</select></div>
</div>
<button type="submit" class="primary">Search flights</button>
</form>`,
  );
}

export const SORTS = [
  { value: 'price', label: 'Price (lowest first)' },
  { value: 'duration', label: 'Duration (shortest first)' },
  { value: 'departure', label: 'Departure time' },
] as const;

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

export function resultsPage(ctx: Ctx, req: SiteRequest, r: ResultsQuery): string {
  const href = hrefs(ctx);
  let flights = flightsFor(ctx.seed, r.from, r.to, r.date);
  if (r.nonstop) flights = flights.filter((f) => f.stops === 0);
  flights = sortFlights(flights, r.sort);
  const keep = { from: r.from, to: r.to, passengers: String(r.passengers), class: r.fareClass };
  const dayLink = (n: number) => href('/results', { ...keep, date: addDays(r.date, n), sort: r.sort, nonstop: r.nonstop ? '1' : undefined });
  const rows = flights.map((f) => {
    const price = priceFor(f, r.fareClass);
    const arrive = f.depart + f.duration;
    const stops = f.stops === 0 ? 'Nonstop' : `${f.stops} stop${f.stops > 1 ? 's' : ''} (${f.via.join(', ')})`;
    return html`<li class="flight">
<div class="times"><strong>${hhmm(f.depart)}</strong> – <strong>${hhmm(arrive)}</strong>${arrive >= 1440 ? html`<sup>+1</sup>` : ''}</div>
<div class="info"><p>${f.airline} · ${f.number}</p><p>${durationText(f.duration)} · ${stops}</p></div>
<p class="price">$${price.toLocaleString('en-US')} <span class="per">per passenger</span></p>
<form method="post" action="${href('/select')}">
<input type="hidden" name="flight" value="${f.number}">
${Object.entries({ ...keep, date: r.date }).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<button type="submit" aria-label="Select flight ${f.number} departing ${hhmm(f.depart)} for $${price}">Select</button>
</form>
</li>`;
  });
  return flightsPage(
    ctx,
    req,
    'Flight results',
    html`<h1>${airportLabel(r.from)} to ${airportLabel(r.to)}</h1>
<p class="summary">${longDate(r.date)} · ${r.passengers} ${r.passengers === 1 ? 'passenger' : 'passengers'} · ${r.fareClass} · <a href="${href('/', { ...keep, date: r.date })}">Change search</a></p>
<nav class="days" aria-label="Nearby dates"><a href="${dayLink(-1)}">Previous day</a> <a href="${dayLink(1)}">Next day</a></nav>
<form class="filters" method="get" action="${href('/results')}" aria-label="Sort and filter">
${Object.entries({ ...keep, date: r.date }).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<label for="sort">Sort by</label>
<select id="sort" name="sort">${SORTS.map((s) => html`<option value="${s.value}"${attr('selected', s.value === r.sort)}>${s.label}</option>`)}</select>
<label class="check"><input type="checkbox" name="nonstop" value="1"${attr('checked', r.nonstop)}> Nonstop only</label>
<button type="submit">Update results</button>
</form>
<p role="status">${flights.length} ${flights.length === 1 ? 'flight' : 'flights'} found</p>
${flights.length ? html`<ol class="flights">${rows}</ol>` : html`<p>No flights match. Try another date or remove the nonstop filter.</p>`}`,
  );
}
