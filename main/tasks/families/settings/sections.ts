/**
 * The blocks of the five settings sections (profile form; password, two-factor and sessions;
 * notification grid and digest; visibility, blocked people and data export; plan, card, billing
 * email and the way to invoices), and the page that lays a section's blocks out in the look's order.
 */
import type { SiteRequest } from '../../types.ts';
import { html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { blockedKey, sessionKey, type SettingsState } from './data.ts';
import { distractorBlock } from './distractors.ts';
import { formatDate } from './format.ts';
import { EXPORT_FIELD, accessibleName, exportOptions, invoicesPath, pagePath, rowNames, type FieldSpec } from './forms.ts';
import { notice, settingsPage, type Ctx } from './pages.ts';
import { block, errorSummary, fieldGroup, fieldId, labelText, renderField, type FormView } from './render-form.ts';
import { valueForm, type Draft } from './value-form.ts';
import { DISTRACTORS, PLANS, type DistractorKey, type PageKey } from './vocabulary.ts';

export const PASSWORD_RULES = ['At least 10 characters', 'At least one letter and one number', 'Different from your current password'];

/** Rows are events, columns channels; each box is named for screen readers by event and channel. */
function notificationTable(s: SettingsState, cells: FieldSpec[], v: FormView): Raw {
  const look = s.look;
  const cell = (key: string) => cells.find((f) => f.key === key)!;
  return html`<table class="cart notify-grid">
<thead><tr><th scope="col">Notify me about</th>${look.channelOrder.map((c) => html`<th scope="col">${look.channelLabels[c]}</th>`)}</tr></thead>
<tbody>${s.events.map(
    (e) => html`<tr><th scope="row">${look.eventLabels[e]}</th>${look.channelOrder.map((c) => {
      const f = cell(`notify.${e}.${c}`);
      return html`<td><input type="checkbox" id="${fieldId(f.key)}" name="${f.key}" value="1" aria-label="${accessibleName(f)}"${v.values[f.key] === '1' ? html` checked` : ''}></td>`;
    })}</tr>`,
  )}</tbody>
</table>`;
}

/** One group per channel, events listed inside; the channel is in each label for screen readers. */
function notificationGroups(s: SettingsState, cells: FieldSpec[], v: FormView): Raw {
  const look = s.look;
  return html`${look.channelOrder.map(
    (c) => html`<fieldset class="notify-channel"><legend>${look.channelLabels[c]}</legend>
${cells.filter((f) => f.key.endsWith(`.${c}`)).map((f) => html`<label class="check"><input type="checkbox" id="${fieldId(f.key)}" name="${f.key}" value="1"${v.values[f.key] === '1' ? html` checked` : ''}> ${labelText(f)}</label><br>`)}
</fieldset>`,
  )}`;
}

function notificationsBlock(ctx: Ctx, draft: Draft | undefined): Raw {
  const s = ctx.state;
  const look = s.look;
  const body = valueForm(ctx, 'notifications', 'notifications', draft, (form, v) => {
    const cells = form.fields.filter((f) => f.kind === 'checkbox');
    const digest = form.fields.find((f) => f.key === 'digest')!;
    const grid = look.notifyLayout === 'table' ? notificationTable(s, cells, v) : notificationGroups(s, cells, v);
    const d = renderField(digest, v);
    return look.digestFirst ? html`${d}${grid}` : html`${grid}${d}`;
  });
  return block(look, 'notifications', 'What we notify you about', html`<p class="meta">Choose how each kind of notification reaches you.</p>${body}`);
}

function passwordBlock(ctx: Ctx, draft: Draft | undefined): Raw {
  const s = ctx.state;
  const look = s.look;
  const L = look.labels;
  // Passwords are never written back into the page, not even after a failed attempt.
  const v: FormView = draft?.form === 'password' ? { values: {}, errors: draft.view.errors } : { values: {}, errors: {} };
  const field = (name: string, label: string) =>
    html`<div class="field"><label for="pw-${name}">${label}</label><input id="pw-${name}" type="password" name="${name}" autocomplete="off"${v.errors[name] ? html` aria-invalid="true" aria-describedby="pw-${name}-err"` : ''}>${v.errors[name] ? html`<p class="field-error" id="pw-${name}-err">${v.errors[name]}</p>` : ''}</div>`;
  return block(
    look,
    'password',
    'Password',
    html`<p class="meta">Your new password must have:</p><ul class="meta">${PASSWORD_RULES.map((r) => html`<li>${r}</li>`)}</ul>
<form method="post" action="${hrefs(ctx)(pagePath(look, 'security'))}" class="settings-form" novalidate>
<input type="hidden" name="form" value="password">
${errorSummary(v)}
${fieldGroup(look, [field('current', L.currentPassword), field('new', L.newPassword), field('confirm', L.confirmPassword)])}
<div class="toolbar"><button type="submit" class="primary">${look.passwordButton}</button></div>
</form>`,
  );
}

function twoFactorBlock(ctx: Ctx, draft: Draft | undefined): Raw {
  const s = ctx.state;
  const on = s.values['twofactor.enabled'] === '1';
  const status = on ? `On (${s.look.methodLabels[s.values['twofactor.method'] as 'app' | 'sms']})` : 'Off';
  return block(s.look, 'twofactor', 'Sign-in codes', html`<p>Status: ${status}</p>${valueForm(ctx, 'security', 'twofactor', draft)}`);
}

function sessionsBlock(ctx: Ctx): Raw {
  const s = ctx.state;
  const look = s.look;
  const action = hrefs(ctx)(pagePath(look, 'security'));
  const active = s.sessions.filter((x) => s.values[sessionKey(x.id)] === 'active');
  return block(
    look,
    'sessions',
    'Where you are signed in',
    html`<table class="cart sessions">
<thead><tr><th scope="col">Device</th><th scope="col">Location</th><th scope="col">Last active</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
<tbody>${active.map((x) => {
      const n = rowNames.signOut(look, x);
      return html`<tr><td>${x.device} · ${x.browser}</td><td>${x.city}</td><td>${x.lastActive}</td><td>${
        x.current
          ? html`<span class="tag">This device</span>`
          : html`<form method="post" action="${action}" class="inline"><input type="hidden" name="form" value="signout"><button type="submit" name="session" value="${x.id}">${n.shown}<span class="sr-only">${n.hidden}</span></button></form>`
      }</td></tr>`;
    })}</tbody>
</table>`,
  );
}

function blockedBlock(ctx: Ctx): Raw {
  const s = ctx.state;
  const look = s.look;
  const action = hrefs(ctx)(pagePath(look, 'privacy'));
  const still = s.blocked.filter((u) => s.values[blockedKey(u.id)] === 'blocked');
  return block(
    look,
    'blocked',
    'Blocked people',
    html`<p class="meta">Blocked people cannot message you or see your activity.</p>
${
  still.length
    ? html`<ul class="plain blocked">${still.map((u) => {
        const n = rowNames.unblock(look, u);
        return html`<li>${u.name} <span class="meta">${u.handle}</span> <form method="post" action="${action}" class="inline"><input type="hidden" name="form" value="unblock"><button type="submit" name="user" value="${u.id}">${n.shown}<span class="sr-only">${n.hidden}</span></button></form></li>`;
      })}</ul>`
    : html`<p>You have not blocked anyone.</p>`
}`,
  );
}

function exportBlock(ctx: Ctx, draft: Draft | undefined): Raw {
  const s = ctx.state;
  const look = s.look;
  const v = draft?.form === 'export' ? draft.view : { values: { [EXPORT_FIELD]: 'json' }, errors: {} };
  const field: FieldSpec = { key: EXPORT_FIELD, kind: 'radio', label: look.labels.exportFormat, options: exportOptions(look) };
  return block(
    look,
    'export',
    'Download your data',
    html`<p class="meta">We prepare a file with your profile, settings and activity and email you a link when it is ready.</p>
${s.exports.length ? html`<ul class="meta">${s.exports.map((e) => html`<li>Export requested on ${formatDate(look.dateStyle, e.on)} (${look.exportLabels[e.format]})</li>`)}</ul>` : ''}
<form method="post" action="${hrefs(ctx)(pagePath(look, 'privacy'))}" class="settings-form" novalidate>
<input type="hidden" name="form" value="export">
${errorSummary(v)}
${renderField(field, v)}
<div class="toolbar"><button type="submit" class="primary">${look.exportButton}</button></div>
</form>`,
  );
}

function planBlock(ctx: Ctx): Raw {
  const s = ctx.state;
  const b = s.billing;
  const better = PLANS.find((p) => p.monthly > b.monthlyCents);
  const plans = s.look.distractors.find((d) => d.key === 'plans' && d.host === 'plans');
  return block(
    s.look,
    'plan',
    'Your plan',
    html`<p>Current plan: <strong>${b.plan}</strong>, ${money(b.monthlyCents)} a month.</p>
<p>Renews on ${formatDate(s.look.dateStyle, b.renews)}.</p>
${better ? html`<p class="meta">Need more room? ${better.name} costs ${money(better.monthly)} a month.</p>` : ''}
${plans ? html`<p><a href="${hrefs(ctx)(pagePath(s.look, 'plans'))}">${s.look.titles.plans}</a></p>` : ''}`,
  );
}

function paymentBlock(ctx: Ctx): Raw {
  const s = ctx.state;
  const c = s.billing.card;
  return block(s.look, 'payment', 'Payment method', html`<p>${c.brand} ending in ${c.last4}, expires ${c.expires}.</p>`);
}

function invoicesBlock(ctx: Ctx): Raw {
  const look = ctx.state.look;
  return block(look, 'invoices', 'Invoices', html`<p>${ctx.state.billing.invoices.length} invoices, one a month. <a href="${hrefs(ctx)(invoicesPath(look))}">${look.invoicesLink}</a></p>`);
}

function profileBlock(ctx: Ctx, draft: Draft | undefined): Raw {
  const look = ctx.state.look;
  const discard = look.discard ? html` <a class="button" href="${hrefs(ctx)(pagePath(look, 'profile'))}">${look.discard}</a>` : undefined;
  return block(look, 'profile', 'About you', valueForm(ctx, 'profile', 'profile', draft, undefined, discard));
}

function sectionBlock(ctx: Ctx, id: string, draft: Draft | undefined): Raw {
  switch (id) {
    case 'profile':
      return profileBlock(ctx, draft);
    case 'password':
      return passwordBlock(ctx, draft);
    case 'twofactor':
      return twoFactorBlock(ctx, draft);
    case 'sessions':
      return sessionsBlock(ctx);
    case 'notifications':
      return notificationsBlock(ctx, draft);
    case 'visibility':
      return block(ctx.state.look, 'visibility', 'Profile visibility', valueForm(ctx, 'privacy', 'visibility', draft));
    case 'blocked':
      return blockedBlock(ctx);
    case 'export':
      return exportBlock(ctx, draft);
    case 'plan':
      return planBlock(ctx);
    case 'payment':
      return paymentBlock(ctx);
    case 'billingEmail':
      return block(ctx.state.look, 'billingEmail', 'Billing contact', valueForm(ctx, 'billing', 'billingEmail', draft));
    case 'invoices':
      return invoicesBlock(ctx);
  }
  if ((DISTRACTORS as readonly string[]).includes(id)) return distractorBlock(ctx, id as DistractorKey, draft);
  return html``;
}

/** A section's page, or a look-alike's own page: heading, the latest notice, then its blocks in order. */
export function sectionPage(ctx: Ctx, req: SiteRequest, page: PageKey, draft?: Draft, noticeText?: string): string {
  const look = ctx.state.look;
  const blocks = look.pageBlocks[page] ?? [];
  return settingsPage(ctx, req, page, look.titles[page], html`<h1>${look.titles[page]}</h1>${notice(noticeText)}${blocks.map((b) => sectionBlock(ctx, b, draft))}`);
}
