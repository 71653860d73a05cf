/** Job board pages: chrome with a two-field search, listing with filters, job detail, application form. */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { attr, html, layout, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { JOB_TYPES, LEVELS, salaryText, type Application, type Job, type JobsState } from './data.ts';

export type Ctx = InstanceContext<JobsState>;

export const SORTS = [
  { value: 'relevance', label: 'Most relevant' },
  { value: 'newest', label: 'Newest' },
  { value: 'salary', label: 'Salary (highest first)' },
] as const;
export const MIN_SALARY = [
  { value: '', label: 'Any salary' },
  { value: '50000', label: '$50,000+' },
  { value: '75000', label: '$75,000+' },
  { value: '100000', label: '$100,000+' },
  { value: '125000', label: '$125,000+' },
] as const;
export const SOURCES = ['Choose one', 'Job board', 'Friend or colleague', 'Company website', 'Social media'];
export const PAGE_SIZE = 10;

export function jobName(j: Job): string {
  return `${j.title} at ${j.company}`;
}

export function jobsPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw, q: { q?: string; location?: string } = {}): string {
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: 'theme-jobs',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/jobs')}">
<input type="search" name="q" value="${q.q ?? ''}" aria-label="Job title or keyword" placeholder="Job title or keyword">
<input type="text" name="location" value="${q.location ?? ''}" aria-label="Location" placeholder="City or Remote">
<button type="submit">Find jobs</button>
</form>`,
    nav: html`<ul><li><a href="${href('/jobs')}">All jobs</a></li><li><a href="${href('/saved')}">Saved jobs (${ctx.state.saved.length})</a></li><li><a href="${href('/applications')}">My applications</a></li></ul>`,
    main,
    overlay: cookieBanner(ctx.state.ui, href, currentPath(req)),
  });
}

function posted(d: number): string {
  return d === 0 ? 'Posted today' : d === 1 ? 'Posted yesterday' : `Posted ${d} days ago`;
}

function card(ctx: Ctx, j: Job): Raw {
  const href = hrefs(ctx);
  return html`<li class="card job-card">
<h3><a href="${href(`/job/${j.id}`)}">${jobName(j)}</a></h3>
<p class="meta">${j.location} · ${j.type} · ${j.level}</p>
<p class="price">${salaryText(j)}</p>
<p class="meta">${posted(j.postedDaysAgo)}</p>
</li>`;
}

export function homePage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const fresh = [...ctx.state.jobs].sort((a, b) => a.postedDaysAgo - b.postedDaysAgo || a.id - b.id).slice(0, 5);
  return jobsPage(
    ctx,
    req,
    'Find your next job',
    html`<section class="hero"><h1>Find your next job</h1><p>${ctx.state.jobs.length} open positions from top employers.</p></section>
<section><h2>New this week</h2><ul class="grid">${fresh.map((j) => card(ctx, j))}</ul></section>
<p><a class="button" href="${href('/jobs')}">Browse all jobs</a></p>`,
  );
}

export interface JobQuery {
  q: string;
  location: string;
  type: string;
  level: string;
  minSalary: string;
  remote: boolean;
  sort: string;
  page: number;
}

export function parseJobQuery(q: URLSearchParams): JobQuery {
  return {
    q: (q.get('q') ?? '').trim(),
    location: (q.get('location') ?? '').trim(),
    type: (JOB_TYPES as readonly string[]).includes(q.get('type') ?? '') ? q.get('type')! : '',
    level: (LEVELS as readonly string[]).includes(q.get('level') ?? '') ? q.get('level')! : '',
    minSalary: MIN_SALARY.some((o) => o.value === q.get('min_salary')) ? q.get('min_salary')! : '',
    remote: q.get('remote') === '1',
    sort: SORTS.some((o) => o.value === q.get('sort')) ? q.get('sort')! : 'relevance',
    page: Math.max(1, Math.floor(Number(q.get('page') ?? '1')) || 1),
  };
}

export function runJobQuery(jobs: Job[], q: JobQuery): Job[] {
  const words = q.q.toLowerCase().split(/\s+/).filter(Boolean);
  const loc = q.location.toLowerCase();
  const titleHits = (j: Job) => words.filter((w) => j.title.toLowerCase().includes(w)).length;
  const by: Record<string, (a: Job, b: Job) => number> = {
    relevance: (a, b) => titleHits(b) - titleHits(a) || a.postedDaysAgo - b.postedDaysAgo || a.id - b.id,
    newest: (a, b) => a.postedDaysAgo - b.postedDaysAgo || a.id - b.id,
    salary: (a, b) => b.salaryMax - a.salaryMax,
  };
  return jobs
    .filter((j) => words.every((w) => `${j.title} ${j.company} ${j.skills.join(' ')}`.toLowerCase().includes(w)))
    .filter((j) => !loc || j.location.toLowerCase().includes(loc))
    .filter((j) => !q.type || j.type === q.type)
    .filter((j) => !q.level || j.level === q.level)
    .filter((j) => !q.minSalary || j.salaryMax >= Number(q.minSalary))
    .filter((j) => !q.remote || j.location === 'Remote')
    .sort(by[q.sort]);
}

export function listPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const q = parseJobQuery(req.query);
  const all = runJobQuery(ctx.state.jobs, q);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const page = Math.min(q.page, pages);
  const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const base = { q: q.q, location: q.location, type: q.type, level: q.level, min_salary: q.minSalary, remote: q.remote ? 1 : undefined, sort: q.sort === 'relevance' ? undefined : q.sort };
  const heading = q.q ? `${q.q} jobs` : 'All jobs';
  const sel = (id: string, name: string, label: string, opts: ReadonlyArray<{ value: string; label: string }>, cur: string) =>
    html`<label for="${id}">${label}</label><select id="${id}" name="${name}">${opts.map((o) => html`<option value="${o.value}"${attr('selected', o.value === cur)}>${o.label}</option>`)}</select>`;
  return jobsPage(
    ctx,
    req,
    heading,
    html`<div class="listing">
<aside><form class="filters" method="get" action="${href('/jobs')}" aria-label="Filters">
<input type="hidden" name="q" value="${q.q}"><input type="hidden" name="location" value="${q.location}">
${sel('f-type', 'type', 'Job type', [{ value: '', label: 'Any type' }, ...JOB_TYPES.map((t) => ({ value: t, label: t }))], q.type)}
${sel('f-level', 'level', 'Experience level', [{ value: '', label: 'Any level' }, ...LEVELS.map((t) => ({ value: t, label: t }))], q.level)}
${sel('f-salary', 'min_salary', 'Minimum salary', MIN_SALARY, q.minSalary)}
<label class="check"><input type="checkbox" name="remote" value="1"${attr('checked', q.remote)}> Remote only</label>
${sel('f-sort', 'sort', 'Sort by', SORTS, q.sort)}
<button type="submit">Apply filters</button>
</form></aside>
<section>
<h1>${heading}</h1>
<p class="count" role="status">${all.length} ${all.length === 1 ? 'job' : 'jobs'}${q.location ? ` in ${q.location}` : ''}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? html`<ul class="grid">${items.map((j) => card(ctx, j))}</ul>` : html`<p>No jobs match your search. Try fewer filters.</p>`}
${pages > 1 ? html`<nav class="pager" aria-label="Pagination">${page > 1 ? html`<a href="${href('/jobs', { ...base, page: page - 1 })}">Previous page</a>` : ''} ${page < pages ? html`<a href="${href('/jobs', { ...base, page: page + 1 })}">Next page</a>` : ''}</nav>` : ''}
</section>
</div>`,
    q,
  );
}

export function jobPage(ctx: Ctx, req: SiteRequest, j: Job, notice?: string): string {
  const href = hrefs(ctx);
  const saved = ctx.state.saved.includes(j.id);
  const applied = ctx.state.applications.some((a) => a.job === j.id);
  return jobsPage(
    ctx,
    req,
    jobName(j),
    html`<p><a href="${href('/jobs', { q: j.title })}">More ${j.title} jobs</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<article class="job">
<h1>${j.title}</h1>
<p class="brand-line">${j.company} · ${j.location}</p>
<dl class="headers">
<dt>Job type</dt><dd>${j.type}</dd>
<dt>Experience level</dt><dd>${j.level}</dd>
<dt>Salary</dt><dd>${salaryText(j)}</dd>
<dt>Experience required</dt><dd>${j.yearsRequired === 0 ? 'No experience required' : `At least ${j.yearsRequired} year${j.yearsRequired > 1 ? 's' : ''}`}</dd>
<dt>Posted</dt><dd>${posted(j.postedDaysAgo)}</dd>
</dl>
<div class="toolbar">
${applied ? html`<p class="notice">You applied to this job.</p>` : html`<a class="button primary" href="${href(`/job/${j.id}/apply`)}">Apply now</a>`}
<form method="post" action="${href(`/job/${j.id}/save`)}" class="inline"><button type="submit" aria-pressed="${saved ? 'true' : 'false'}">${saved ? 'Unsave job' : 'Save job'}</button></form>
</div>
<h2>About the role</h2>
<p>${j.company} is hiring a ${j.level.toLowerCase()} ${j.title} to join a growing team. You will work with ${j.skills.join(', ')} every day.</p>
<h2>Requirements</h2>
<ul>${j.skills.map((s) => html`<li>Experience with ${s}</li>`)}</ul>
<h2>Benefits</h2>
<ul>${j.benefits.map((b) => html`<li>${b}</li>`)}</ul>
</article>`,
  );
}

export interface ApplyForm {
  name: string;
  email: string;
  phone: string;
  years: string;
  authorized: string;
  source: string;
  cover: string;
  agree: boolean;
  errors: Partial<Record<'name' | 'email' | 'phone' | 'years' | 'authorized' | 'agree', string>>;
}

export function applyPage(ctx: Ctx, req: SiteRequest, j: Job, f: ApplyForm): string {
  const href = hrefs(ctx);
  const errs = Object.values(f.errors);
  const inv = (k: keyof ApplyForm['errors']) => (f.errors[k] ? html` aria-invalid="true" aria-describedby="a-${k}-err"` : '');
  const err = (k: keyof ApplyForm['errors']) => (f.errors[k] ? html`<p class="field-error" id="a-${k}-err">${f.errors[k]}</p>` : '');
  const text = (k: 'name' | 'email' | 'phone', label: string) => html`<div class="field"><label for="a-${k}">${label}</label><input id="a-${k}" type="text" name="${k}" value="${f[k]}"${inv(k)}>${err(k)}</div>`;
  return jobsPage(
    ctx,
    req,
    `Apply: ${jobName(j)}`,
    html`<p><a href="${href(`/job/${j.id}`)}">Back to the job</a></p>
<h1>Apply for ${j.title}</h1>
<p class="brand-line">${j.company} · ${j.location}</p>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(`/job/${j.id}/apply`)}" novalidate>
${text('name', 'Full name')}
${text('email', 'Email')}
${text('phone', 'Phone')}
<div class="field"><label for="a-years">Years of experience</label><input id="a-years" type="number" name="years" min="0" max="50" value="${f.years}"${inv('years')}>${err('years')}</div>
<fieldset${f.errors.authorized ? html` aria-invalid="true"` : ''}><legend>Are you authorized to work in the US?</legend>
<label class="check"><input type="radio" name="authorized" value="yes"${attr('checked', f.authorized === 'yes')}> Yes</label>
<label class="check"><input type="radio" name="authorized" value="no"${attr('checked', f.authorized === 'no')}> No</label>
${err('authorized')}</fieldset>
<div class="field"><label for="a-source">How did you hear about us? (optional)</label><select id="a-source" name="source">${SOURCES.map((s) => html`<option value="${s === 'Choose one' ? '' : s}"${attr('selected', s === f.source)}>${s}</option>`)}</select></div>
<div class="field"><label for="a-cover">Cover letter (optional)</label><textarea id="a-cover" name="cover" rows="5">${f.cover}</textarea></div>
<div class="field"><label class="check"><input type="checkbox" name="agree" value="1"${attr('checked', f.agree)}${inv('agree')}> I agree to the privacy policy</label>${err('agree')}</div>
<button type="submit" class="primary">Submit application</button>
</form>`,
  );
}

export function applicationPage(ctx: Ctx, req: SiteRequest, a: Application): string {
  const href = hrefs(ctx);
  const j = ctx.state.jobs.find((x) => x.id === a.job)!;
  return jobsPage(
    ctx,
    req,
    'Application sent',
    html`<h1>Application sent</h1>
<p class="notice" role="status">Your application for ${jobName(j)} was sent. Reference ${a.id}.</p>
<dl class="headers"><dt>Name</dt><dd>${a.name}</dd><dt>Email</dt><dd>${a.email}</dd><dt>Phone</dt><dd>${a.phone}</dd><dt>Years of experience</dt><dd>${a.years}</dd></dl>
<p><a href="${href('/applications')}">My applications</a> · <a href="${href('/jobs')}">Find more jobs</a></p>`,
  );
}

export function listOfJobsPage(ctx: Ctx, req: SiteRequest, title: string, jobs: Job[], empty: string): string {
  return jobsPage(ctx, req, title, html`<h1>${title}</h1>${jobs.length ? html`<ul class="grid">${jobs.map((j) => card(ctx, j))}</ul>` : html`<p>${empty}</p>`}`);
}
