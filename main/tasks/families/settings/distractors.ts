/**
 * Look-alike sections: they sound like the place a task points to ("Email signature" beside the
 * email address, "Connected apps" beside signed-in devices, "Compare plans" beside the current
 * plan) but hold nothing a task asks for. Some have settings of their own; changing one is a side
 * effect the checker counts.
 */
import { html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { appKey } from './data.ts';
import { pagePath, rowNames } from './forms.ts';
import type { Ctx } from './pages.ts';
import { block } from './render-form.ts';
import { valueForm, type Draft } from './value-form.ts';
import { PLANS, type DistractorKey } from './vocabulary.ts';

const CHECKUP_TIPS = [
  'Use a password you do not use anywhere else.',
  'Turn on sign-in codes so a stolen password is not enough.',
  'Review the devices signed in to your account now and then.',
  'Keep your email address up to date so you can recover your account.',
];

const POLICY_PARAGRAPHS = [
  'We collect the information you give us when you create an account and use the service.',
  'We use it to run the service, keep it secure and, if you allow it, to tell you about new features.',
  'You can ask for a copy of your data or ask us to delete it at any time.',
];

function appsBody(ctx: Ctx): Raw {
  const s = ctx.state;
  const look = s.look;
  const host = look.distractors.find((d) => d.key === 'apps')!.host;
  const still = s.apps.filter((a) => s.values[appKey(a.id)] === 'connected');
  if (!still.length) return html`<p>No apps have access to your account.</p>`;
  return html`<ul class="plain apps">${still.map((a) => {
    const n = rowNames.removeApp(look, a);
    return html`<li>${a.name} <span class="meta">${a.access}</span> <form method="post" action="${hrefs(ctx)(pagePath(look, host))}" class="inline"><input type="hidden" name="form" value="removeApp"><button type="submit" name="app" value="${a.id}">${n.shown}<span class="sr-only">${n.hidden}</span></button></form></li>`;
  })}</ul>`;
}

function plansBody(): Raw {
  return html`<table class="cart plans"><thead><tr><th scope="col">Plan</th><th scope="col">Price</th><th scope="col">Storage</th></tr></thead>
<tbody>${PLANS.map((p, i) => html`<tr><td>${p.name}</td><td>${money(p.monthly)} a month</td><td>${10 * 2 ** i} GB</td></tr>`)}</tbody></table>`;
}

export function distractorBlock(ctx: Ctx, key: DistractorKey, draft: Draft | undefined): Raw {
  const look = ctx.state.look;
  const host = look.distractors.find((d) => d.key === key)?.host ?? key;
  const title = look.titles[key];
  let body: Raw;
  switch (key) {
    case 'signature':
    case 'sounds':
    case 'marketing':
    case 'accessibility':
      body = valueForm(ctx, host, key, draft);
      break;
    case 'apps':
      body = appsBody(ctx);
      break;
    case 'checkup':
      body = html`<ul>${CHECKUP_TIPS.map((t) => html`<li>${t}</li>`)}</ul>`;
      break;
    case 'policy':
      body = html`${POLICY_PARAGRAPHS.map((p) => html`<p>${p}</p>`)}`;
      break;
    case 'plans':
      body = plansBody();
      break;
  }
  return block(look, `x-${key}`, title, body);
}
