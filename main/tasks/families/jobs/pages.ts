/**
 * Browsing the job board: the home page (its sections in the variant's order), the listing with
 * its filters, the saved and applied lists, and the plain pages the distractors lead to.
 */
import type { SiteRequest } from '../../types.ts';
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { JOB_TYPES, LEVELS, type Job } from './data.ts';
import { jobListing, jobsPage, type Ctx } from './chrome.ts';
import { MIN_SALARY, PAGE_SIZE, parseJobQuery, runJobQuery, sortOptions, type JobQuery } from './query.ts';
import { resultsHeading, type FilterKey, type SectionKey } from './variant.ts';

function freshSection(ctx: Ctx): Raw {
  const fresh = [...ctx.state.jobs].sort((a, b) => a.postedDaysAgo - b.postedDaysAgo || a.id - b.id).slice(0, 5);
  return html`<section><h2>${ctx.state.variant.words.fresh}</h2>${jobListing(ctx, fresh)}</section>`;
}

function browseSection(ctx: Ctx): Raw {
  return html`<p><a class="button" href="${hrefs(ctx)('/jobs')}">${ctx.state.variant.words.browseAll}</a></p>`;
}

/** A distractor: a promo box leading to a plain page of the board. */
function promo(ctx: Ctx, heading: string, text: string, link: string, path: string): Raw {
  return html`<section class="promo"><h2>${heading}</h2><p>${text}</p><p><a href="${hrefs(ctx)(path)}">${link}</a></p></section>`;
}

const SECTIONS: Record<SectionKey, (ctx: Ctx) => Raw> = {
  fresh: freshSection,
  browse: browseSection,
  advicePromo: (ctx) => promo(ctx, 'Stand out to employers', 'Short guides to CVs, cover letters and interviews.', 'Read our career tips', '/advice'),
  alertsPromo: (ctx) => promo(ctx, 'Never miss a posting', 'Get new jobs by e-mail as soon as they are posted.', 'Set up job alerts', '/alerts'),
  employersPromo: (ctx) => promo(ctx, 'Hiring?', 'Reach thousands of candidates this week.', 'Post a job', '/employers'),
};

export function homePage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const w = s.variant.words;
  return jobsPage(
    ctx,
    req,
    w.hero,
    html`<section class="hero"><h1>${w.hero}</h1><p>${s.jobs.length} open positions from top employers.</p></section>
${s.variant.sections.map((k) => SECTIONS[k](ctx))}`,
  );
}

/** The listing's filter form, its controls in the variant's order. */
function filterForm(ctx: Ctx, q: JobQuery): Raw {
  const w = ctx.state.variant.words;
  const sel = (id: string, name: string, label: string, opts: ReadonlyArray<{ value: string; label: string }>, cur: string) =>
    html`<div class="filter"><label for="${id}">${label}</label><select id="${id}" name="${name}">${opts.map((o) => html`<option value="${o.value}"${attr('selected', o.value === cur)}>${o.label}</option>`)}</select></div>`;
  const controls: Record<FilterKey, () => Raw> = {
    type: () => sel('f-type', 'type', w.type, [{ value: '', label: 'Any type' }, ...JOB_TYPES.map((t) => ({ value: t, label: t }))], q.type),
    level: () => sel('f-level', 'level', w.level, [{ value: '', label: 'Any level' }, ...LEVELS.map((t) => ({ value: t, label: t }))], q.level),
    minSalary: () => sel('f-salary', 'min_salary', w.minSalary, MIN_SALARY, q.minSalary),
    remote: () => html`<div class="filter"><label class="check"><input type="checkbox" name="remote" value="1"${attr('checked', q.remote)}> ${w.remote}</label></div>`,
    sort: () => sel('f-sort', 'sort', w.sort, sortOptions(w), q.sort),
  };
  return html`<form class="filters" method="get" action="${hrefs(ctx)('/jobs')}" aria-label="Filters">
<input type="hidden" name="q" value="${q.q}"><input type="hidden" name="location" value="${q.location}">
${ctx.state.variant.filters.map((k) => controls[k]())}
<button type="submit">${w.applyFilters}</button>
</form>`;
}

export function listPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const q = parseJobQuery(req.query);
  const all = runJobQuery(ctx.state.jobs, q);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const page = Math.min(q.page, pages);
  const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const base = { q: q.q, location: q.location, type: q.type, level: q.level, min_salary: q.minSalary, remote: q.remote ? 1 : undefined, sort: q.sort === 'relevance' ? undefined : q.sort };
  const heading = q.q ? resultsHeading(w, q.q) : w.navAll;
  const filters = filterForm(ctx, q);
  const pager = html`<nav class="pager" aria-label="Pagination">${page > 1 ? html`<a href="${href('/jobs', { ...base, page: page - 1 })}">${w.prevPage}</a>` : ''} ${page < pages ? html`<a href="${href('/jobs', { ...base, page: page + 1 })}">${w.nextPage}</a>` : ''}</nav>`;
  const results = html`<section>
<h1>${heading}</h1>
<p class="count" role="status">${all.length} ${all.length === 1 ? 'job' : 'jobs'}${q.location ? ` in ${q.location}` : ''}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? jobListing(ctx, items) : html`<p>No jobs match your search. Try fewer filters.</p>`}
${pages > 1 ? pager : ''}
</section>`;
  const body = ctx.state.variant.filterPlacement === 'side' ? html`<div class="listing"><aside>${filters}</aside>${results}</div>` : html`<div class="listing listing-top">${filters}${results}</div>`;
  return jobsPage(ctx, req, heading, body, q);
}

/** The saved jobs or the jobs applied to, under the heading their navigation link gives them. */
export function listOfJobsPage(ctx: Ctx, req: SiteRequest, title: string, jobs: Job[], empty: string): string {
  return jobsPage(ctx, req, title, html`<h1>${title}</h1>${jobs.length ? jobListing(ctx, jobs) : html`<p>${empty}</p>`}`);
}

const INFO: Record<string, { title: string; text: string }> = {
  '/advice': { title: 'Career advice', text: 'Our career guides are being rewritten. Check back soon for tips on CVs, cover letters and interviews.' },
  '/alerts': { title: 'Job alerts', text: 'Job alerts are available in our mobile app only.' },
  '/salaries': { title: 'Salary guide', text: 'The salary guide is published every spring. This year\'s edition is not out yet.' },
  '/employers': { title: 'For employers', text: 'To post a job, contact our sales team. Postings go live within two working days.' },
  '/help': { title: 'Help centre', text: 'Questions about your account? Write to support; we answer within a day. Search and apply from the job pages.' },
};

/** A distractor page, or undefined for any other path. */
export function infoPage(ctx: Ctx, req: SiteRequest): string | undefined {
  const page = INFO[req.path];
  return page && jobsPage(ctx, req, page.title, html`<h1>${page.title}</h1><p>${page.text}</p>`);
}
