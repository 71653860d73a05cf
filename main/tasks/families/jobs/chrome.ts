/**
 * The frame of every job-board page: the header with its two-field search, the navigation where
 * the variant puts it, the cookie banner (when this board has one), and the list of postings in the
 * variant's view (cards, table or list), shared by the listing, the home page and the saved and
 * applied pages.
 */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, raw, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { salaryText, type Job, type JobsState } from './data.ts';
import { JOBS_CSS } from './style.ts';
import { jobLabel, savedNavLabel, type NavKey } from './variant.ts';

export type Ctx = InstanceContext<JobsState>;

/** Where each navigation entry leads; the distractors lead to plain pages that help with nothing. */
export const NAV_PATHS: Record<NavKey, string> = {
  all: '/jobs',
  saved: '/saved',
  applications: '/applications',
  advice: '/advice',
  salaries: '/salaries',
  employers: '/employers',
  help: '/help',
};

/** The distractor links' names: the same on every board (they are never a task's target). */
export const DISTRACTOR_NAV_LABELS: Partial<Record<NavKey, string>> = { advice: 'Career advice', salaries: 'Salary guide', employers: 'For employers', help: 'Help centre' };

/** A navigation entry's name on this board. */
export function navLabel(s: JobsState, key: NavKey): string {
  const w = s.variant.words;
  if (key === 'all') return w.navAll;
  if (key === 'saved') return savedNavLabel(w, s.saved.length);
  if (key === 'applications') return w.navApplications;
  return DISTRACTOR_NAV_LABELS[key]!;
}

function navList(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  return html`<ul>${ctx.state.variant.nav.map((k) => html`<li><a href="${href(NAV_PATHS[k])}">${navLabel(ctx.state, k)}</a></li>`)}</ul>`;
}

function searchForm(ctx: Ctx, q: { q?: string; location?: string }): Raw {
  const w = ctx.state.variant.words;
  return html`<form class="search" role="search" method="get" action="${hrefs(ctx)('/jobs')}">
<input type="search" name="q" value="${q.q ?? ''}" aria-label="${w.keyword}" placeholder="${w.keyword}">
<input type="text" name="location" value="${q.location ?? ''}" aria-label="${w.location}" placeholder="City or Remote">
<button type="submit">${w.find}</button>
</form>`;
}

/** A page of the board: `q` refills the header search on the listing. */
export function jobsPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw, q: { q?: string; location?: string } = {}): string {
  const s = ctx.state;
  const v = s.variant;
  const href = hrefs(ctx);
  const nav = navList(ctx);
  const style = html`<style>${raw(JOBS_CSS)}</style>`;
  const body = v.navPlacement === 'side' ? html`<div class="jobs-shell"><nav class="side-nav" aria-label="Main">${nav}</nav><div class="jobs-main">${main}</div></div>` : main;
  return layout({
    title,
    siteName: s.siteName,
    theme: `theme-jobs jobs-${v.accent} jobs-nav-${v.navPlacement}`,
    homeHref: href('/'),
    header: html`${searchForm(ctx, q)}${v.navPlacement === 'header' ? html`<nav class="header-nav" aria-label="Main">${nav}</nav>` : ''}`,
    ...(v.navPlacement === 'top' ? { nav } : {}),
    main: html`${style}${body}`,
    overlay: v.overlay === 'cookies' ? cookieBanner(s.ui, href, currentPath(req), v.cookieWords) : undefined,
  });
}

export function posted(d: number): string {
  return d === 0 ? 'Posted today' : d === 1 ? 'Posted yesterday' : `Posted ${d} days ago`;
}

/** Postings in this board's view: cards, a table (the facts in columns) or a plain list. */
export function jobListing(ctx: Ctx, jobs: Job[]): Raw {
  const w = ctx.state.variant.words;
  const href = hrefs(ctx);
  const link = (j: Job) => html`<a href="${href(`/job/${j.id}`)}">${jobLabel(w, j)}</a>`;
  switch (ctx.state.variant.listView) {
    case 'table':
      return html`<table class="cart job-table"><thead><tr><th scope="col">Job</th><th scope="col">${w.location}</th><th scope="col">${w.type}</th><th scope="col">${w.level}</th><th scope="col">${w.salary}</th><th scope="col">${w.posted}</th></tr></thead>
<tbody>${jobs.map((j) => html`<tr><td>${link(j)}</td><td>${j.location}</td><td>${j.type}</td><td>${j.level}</td><td>${salaryText(j)}</td><td>${posted(j.postedDaysAgo)}</td></tr>`)}</tbody></table>`;
    case 'list':
      return html`<ul class="job-list">${jobs.map((j) => html`<li>${link(j)} <span class="meta">${j.location} · ${j.type} · ${j.level} · ${salaryText(j)} · ${posted(j.postedDaysAgo)}</span></li>`)}</ul>`;
    default:
      return html`<ul class="grid">${jobs.map(
        (j) => html`<li class="card job-card">
<h3>${link(j)}</h3>
<p class="meta">${j.location} · ${j.type} · ${j.level}</p>
<p class="price">${salaryText(j)}</p>
<p class="meta">${posted(j.postedDaysAgo)}</p>
</li>`,
      )}</ul>`;
  }
}
