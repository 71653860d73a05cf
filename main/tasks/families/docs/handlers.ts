/** Routes of a docs site: versioned reading pages, the version switch, search, feedback votes and issue reports. */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { mixSeed } from '../../../common/rng.ts';
import { safeReturn } from '../common/site.ts';
import { apiPage, changelogPage, guidePage, homePage, missingInVersion, modulePage } from './pages-docs.ts';
import { searchPage } from './pages-search.ts';
import { issuePage, reportPage, validateReport, type ReportForm } from './pages-report.ts';
import { findFunction, pageExists, pagePath, pageTitle, parsePagePath, reportablePages } from './site-map.ts';
import type { Ctx } from './state.ts';

const page = (body: string, status?: number): SiteResponse => ({ kind: 'html', body, ...(status ? { status } : {}) });

function versionFrom(ctx: Ctx, raw: string | null): number {
  const v = Number(raw);
  return ctx.state.lib.majors.includes(v) ? v : ctx.state.lib.latest;
}

function readingPage(ctx: Ctx, req: SiteRequest): SiteResponse {
  const s = ctx.state;
  const at = parsePagePath(s, req.path);
  if (!at) return { kind: 'not_found' };
  const { major, key } = at;
  if (!pageExists(s, key, major)) return page(missingInVersion(ctx, pageTitle(s, key), major), 404);
  if (key === 'home') return page(homePage(ctx, major));
  if (key === 'changelog') return page(changelogPage(ctx, req, major));
  if (key.startsWith('guide:')) return page(guidePage(ctx, req, s.lib.guides.find((g) => g.slug === key.slice(6))!, major));
  if (key.startsWith('module:')) return page(modulePage(ctx, req, key.slice(7), major));
  return page(apiPage(ctx, req, findFunction(s, key.slice(4))!, major));
}

/** The version selector: the same page in the chosen version, or that version's home where the page does not exist. */
function switchVersion(ctx: Ctx, req: SiteRequest): SiteResponse {
  const s = ctx.state;
  const major = versionFrom(ctx, req.query.get('v'));
  const key = req.query.get('page') ?? 'home';
  return { kind: 'redirect', location: pageExists(s, key, major) ? pagePath(s, key, major) : `/v${major}/` };
}

function vote(ctx: Ctx, req: SiteRequest): SiteResponse {
  const s = ctx.state;
  const key = req.form.get('page') ?? '';
  if (!reportablePages(s).includes(key)) return page(missingInVersion(ctx, 'Unknown page', s.lib.latest), 400);
  const choice = req.form.get('choice');
  if (choice === 'yes' || choice === 'no') s.feedback[key] = choice;
  else if (choice === 'withdraw') delete s.feedback[key];
  return { kind: 'redirect', location: safeReturn(req.form.get('return')) };
}

function fileIssue(ctx: Ctx, req: SiteRequest): SiteResponse {
  const s = ctx.state;
  const g = (k: string) => (req.form.get(k) ?? '').trim();
  const f: ReportForm = { title: g('title'), page: g('page'), description: g('description'), major: versionFrom(ctx, req.form.get('v')), errors: {} };
  f.errors = validateReport(ctx, f);
  if (Object.keys(f.errors).length) return page(reportPage(ctx, f));
  let code = '';
  for (let n = s.issues.length; !code || s.issues.some((i) => i.code === code); n++) code = `DOC-${(mixSeed(ctx.seed, 'issue', n) % 9000) + 1000}`;
  s.issues.push({ code, page: f.page, version: f.major, title: f.title, description: f.description });
  return { kind: 'redirect', location: `/report/${code}` };
}

export function handleDocs(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  if (req.method === 'POST') {
    if (req.path === '/feedback') return vote(ctx, req);
    if (req.path === '/report') return fileIssue(ctx, req);
    return { kind: 'not_found' };
  }
  if (req.path === '/') return { kind: 'redirect', location: `/v${s.lib.latest}/` };
  if (req.path === '/switch') return switchVersion(ctx, req);
  if (req.path === '/search') return page(searchPage(ctx, req));
  if (req.path === '/report') {
    const key = req.query.get('page') ?? '';
    return page(reportPage(ctx, { title: '', page: reportablePages(s).includes(key) ? key : '', description: '', major: versionFrom(ctx, req.query.get('v')), errors: {} }));
  }
  const done = req.path.match(/^\/report\/(DOC-\d+)$/);
  if (done) {
    const issue = s.issues.find((i) => i.code === done[1]);
    return issue ? page(issuePage(ctx, issue)) : { kind: 'not_found' };
  }
  return readingPage(ctx, req);
}
