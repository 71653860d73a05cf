/** Routes of the directory: reading pages (GET); the overlay, saving, unsaving and the contact form (POST, then redirect). */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { normalizeText } from '../../../common/normalize.ts';
import { handleCookies, safeReturn } from '../common/site.ts';
import { categoryOf, subOf, type Listing } from './data.ts';
import type { Ctx } from './chrome.ts';
import { categoriesPage, categoryPage, helpPage, homePage, listingPage, popularPage, savedPage, searchPage } from './pages-browse.ts';
import { recordPage, type ContactForm } from './pages-record.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });
export const MIN_MESSAGE = 5;
export const MAX_MESSAGE = 1000;
export const MAX_NOTE = 200;

function listingAt(ctx: Ctx, idText: string): Listing | undefined {
  return /^\d{1,9}$/.test(idText) ? ctx.state.listings.find((l) => l.id === Number(idText)) : undefined;
}

/** A search for exactly one listing's full name (and nothing else) opens that listing. */
function exactHit(ctx: Ctx, req: SiteRequest): Listing | undefined {
  if ([...req.query.keys()].some((k) => k !== 'q')) return undefined;
  const q = normalizeText(req.query.get('q') ?? '');
  const hits = q ? ctx.state.listings.filter((l) => normalizeText(l.name) === q) : [];
  return hits.length === 1 ? hits[0] : undefined;
}

function contactErrors(ctx: Ctx, f: ContactForm): ContactForm['errors'] {
  const errors: ContactForm['errors'] = {};
  if (!ctx.state.topics.includes(f.topic)) errors.topic = 'Choose a topic.';
  if (!f.message) errors.message = 'Write a message before sending.';
  else if (f.message.length < MIN_MESSAGE) errors.message = `Messages must be at least ${MIN_MESSAGE} characters long.`;
  else if (f.message.length > MAX_MESSAGE) errors.message = `Messages can be at most ${MAX_MESSAGE.toLocaleString('en-US')} characters long.`;
  return errors;
}

function handleGet(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  if (path === '/') return page(homePage(ctx, req));
  if (path === '/categories') return page(categoriesPage(ctx, req));
  if (path === '/search') {
    const hit = exactHit(ctx, req);
    return hit ? { kind: 'redirect', location: `/place/${hit.id}` } : page(searchPage(ctx, req));
  }
  if (path === '/saved') return page(savedPage(ctx, req));
  if (path === '/help') return page(helpPage(ctx, req));
  if (path === '/popular' && s.look.decoys.includes('popular')) return page(popularPage(ctx, req));
  const cm = path.match(/^\/c\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/);
  if (cm) {
    const c = categoryOf(s, cm[1]);
    if (!c) return { kind: 'not_found' };
    if (!cm[2]) return page(categoryPage(ctx, req, c));
    const sub = subOf(s, c.slug, cm[2]);
    return sub ? page(listingPage(ctx, req, c, sub)) : { kind: 'not_found' };
  }
  const pm = path.match(/^\/place\/([^/]+)$/);
  const l = pm ? listingAt(ctx, pm[1]) : undefined;
  return l ? page(recordPage(ctx, req, l)) : { kind: 'not_found' };
}

function handlePost(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  if (path === '/cookies') return handleCookies(req, s.ui);
  if (path === '/dialog') {
    s.ui.cookiesDismissed = true;
    if (s.look.overlay === 'newsletter' && req.form.get('choice') === 'join') s.newsletter = true;
    return { kind: 'redirect', location: safeReturn(req.form.get('return')) };
  }
  if (path === '/newsletter/stop') {
    s.newsletter = false;
    return { kind: 'redirect', location: '/help' };
  }
  const pm = path.match(/^\/place\/([^/]+)\/(save|unsave|contact)$/);
  const l = pm ? listingAt(ctx, pm[1]) : undefined;
  if (!pm || !l) return { kind: 'not_found' };
  if (pm[2] === 'save') {
    const note = (req.form.get('note') ?? '').trim().slice(0, MAX_NOTE);
    const entry = s.saved.find((e) => e.id === l.id);
    if (entry) entry.note = note;
    else s.saved.push({ id: l.id, note });
    return { kind: 'redirect', location: `/place/${l.id}` };
  }
  if (pm[2] === 'unsave') {
    s.saved = s.saved.filter((e) => e.id !== l.id);
    return { kind: 'redirect', location: req.form.get('return') === '/saved' ? '/saved' : `/place/${l.id}` };
  }
  const form: ContactForm = { topic: req.form.get('topic') ?? '', message: (req.form.get('message') ?? '').trim(), errors: {} };
  form.errors = contactErrors(ctx, form);
  if (Object.keys(form.errors).length) return page(recordPage(ctx, req, l, { ...form, message: form.message.slice(0, MAX_MESSAGE * 2) }));
  s.sent.push({ id: l.id, topic: form.topic, message: form.message });
  return { kind: 'redirect', location: `/place/${l.id}?sent=1` };
}

export function handleDirectory(req: SiteRequest, ctx: Ctx): SiteResponse {
  return req.method === 'GET' ? handleGet(req, ctx) : handlePost(req, ctx);
}
