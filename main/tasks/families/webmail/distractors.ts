/**
 * Distractors: boxes beside a listing (storage, the mobile app) and the plain pages the extra
 * navigation links and the boxes lead to. None holds a task's answer, none names a message, and
 * none changes anything, so no checker can see a visit.
 */
import { html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { mailPage, type Ctx } from './chrome.ts';

export function storageBox(ctx: Ctx): Raw {
  const used = ctx.state.variant.storageUsed;
  return html`<aside class="mail-box" aria-label="Storage"><p>Storage: ${used}% of 15 GB used.</p><p><a href="${hrefs(ctx)('/settings')}">Manage storage</a></p></aside>`;
}

export function appBox(ctx: Ctx): Raw {
  return html`<aside class="mail-box" aria-label="Mobile app"><p>Read your mail anywhere with the ${ctx.state.variant.words.siteName} app.</p><p><a href="${hrefs(ctx)('/app')}">Get the app</a></p></aside>`;
}

const INFO: Record<string, { title: string; text: string }> = {
  '/contacts': { title: 'Contacts', text: 'Your contacts are synced from your phone. Open the mobile app to add or edit them.' },
  '/settings': { title: 'Settings', text: 'Signatures, filters, storage and the vacation responder are managed by your administrator.' },
  '/help': { title: 'Help centre', text: 'Answers to common questions are coming soon. For anything urgent, contact your IT desk.' },
  '/app': { title: 'Mobile app', text: 'The mobile app is available in your phone’s app store. Sign in with the same address as here.' },
};

/** A distractor page, or undefined for any other path. */
export function infoPage(ctx: Ctx, path: string): string | undefined {
  const page = INFO[path];
  if (!page) return undefined;
  return mailPage(ctx, page.title, html`<h1>${page.title}</h1><p>${page.text}</p>`);
}
