/** Routes of the job board: search and browse (GET), save and apply (POST, then redirect). */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { mixSeed } from '../../../common/rng.ts';
import { handleCookies } from '../common/site.ts';
import type { Ctx } from './chrome.ts';
import { homePage, infoPage, listOfJobsPage, listPage } from './pages.ts';
import { SOURCES, applicationPage, applyPage, jobPage, type ApplyForm } from './pages-job.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;
const EMAIL_RE = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;

export function handleJobs(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  const jm = path.match(/^\/job\/(\d+)(\/apply|\/save)?$/);
  const job = jm ? s.jobs.find((j) => j.id === Number(jm[1])) : undefined;
  if (jm && !job) return { kind: 'not_found' };
  if (req.method === 'GET') {
    if (path === '/') return page(homePage(ctx, req));
    if (path === '/jobs') return page(listPage(ctx, req));
    if (job && !jm![2]) return page(jobPage(ctx, req, job, req.query.get('saved') === '1' ? 'Job saved.' : req.query.get('saved') === '0' ? 'Job removed from your saved jobs.' : undefined));
    if (job && jm![2] === '/apply') {
      if (s.applications.some((a) => a.job === job.id)) return { kind: 'redirect', location: `/job/${job.id}` };
      return page(applyPage(ctx, req, job, { name: '', email: '', phone: '', years: '', authorized: '', source: 'Choose one', cover: '', agree: false, errors: {} }));
    }
    const am = path.match(/^\/application\/([A-Z0-9-]+)$/);
    if (am) {
      const a = s.applications.find((x) => x.id === am[1]);
      return a ? page(applicationPage(ctx, req, a)) : { kind: 'not_found' };
    }
    const w = s.variant.words;
    if (path === '/saved') return page(listOfJobsPage(ctx, req, w.navSaved, s.jobs.filter((j) => s.saved.includes(j.id)), 'You have not saved any jobs.'));
    if (path === '/applications') return page(listOfJobsPage(ctx, req, w.navApplications, s.applications.map((a) => s.jobs.find((j) => j.id === a.job)!), 'You have not applied to any jobs yet.'));
    const info = infoPage(ctx, req);
    return info ? page(info) : { kind: 'not_found' };
  }
  if (path === '/cookies') return handleCookies(req, s.ui);
  if (job && jm![2] === '/save') {
    const was = s.saved.includes(job.id);
    s.saved = was ? s.saved.filter((x) => x !== job.id) : [...s.saved, job.id];
    return { kind: 'redirect', location: `/job/${job.id}?saved=${was ? 0 : 1}` };
  }
  if (job && jm![2] === '/apply') {
    if (s.applications.some((a) => a.job === job.id)) return { kind: 'redirect', location: `/job/${job.id}` };
    const g = (k: string) => (req.form.get(k) ?? '').trim();
    const f: ApplyForm = { name: g('name'), email: g('email'), phone: g('phone'), years: g('years'), authorized: g('authorized'), source: SOURCES.includes(g('source')) ? g('source') : 'Choose one', cover: req.form.get('cover') ?? '', agree: g('agree') === '1', errors: {} };
    if (!f.name) f.errors.name = 'Enter your full name.';
    else if (!NAME_RE.test(f.name)) f.errors.name = 'Your name may contain only letters, spaces, hyphens and apostrophes.';
    if (!f.email) f.errors.email = 'Enter your email address.';
    else if (!EMAIL_RE.test(f.email)) f.errors.email = 'Enter a valid email address, e.g. name@example.com.';
    const digits = f.phone.replace(/\D/g, '');
    if (!f.phone) f.errors.phone = 'Enter your phone number.';
    else if (!/^[\d\s()+.\-]+$/.test(f.phone) || digits.length !== 10) f.errors.phone = 'Enter a 10-digit phone number.';
    if (!/^\d{1,2}$/.test(f.years) || Number(f.years) > 50) f.errors.years = 'Years of experience must be a whole number from 0 to 50.';
    if (f.authorized !== 'yes' && f.authorized !== 'no') f.errors.authorized = 'Tell us whether you are authorized to work in the US.';
    if (!f.agree) f.errors.agree = 'You must agree to the privacy policy.';
    if (Object.keys(f.errors).length) return page(applyPage(ctx, req, job, f));
    const id = `APP-${(mixSeed(ctx.seed, 'application', s.applications.length) % 90000) + 10000}`;
    s.applications.push({ id, job: job.id, name: f.name, email: f.email, phone: f.phone, years: Number(f.years), authorized: f.authorized, source: f.source, cover: f.cover });
    return { kind: 'redirect', location: `/application/${id}` };
  }
  return { kind: 'not_found' };
}
