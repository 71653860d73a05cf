/** Saved payees with a "pay" link each, and the form to add one. */
import type { SiteRequest } from '../../types.ts';
import { html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import type { PayeeForm } from './rules.ts';
import { bankPage, errorSummary, field, invalid, type Ctx } from './chrome.ts';
import { payToLabel, type PayeeField } from './variant.ts';

export function payeesPage(ctx: Ctx, req: SiteRequest, notice?: string): string {
  const s = ctx.state;
  const w = s.variant.words;
  const href = hrefs(ctx);
  return bankPage(
    ctx,
    req,
    w.navPayees,
    html`<h1>${w.navPayees}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<p><a class="button" href="${href('/payees/new')}">${w.addPayee}</a></p>
<table class="cart"><thead><tr><th scope="col">Name</th><th scope="col">Account</th><th scope="col">Reference</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${s.payees.map((p) => html`<tr><td>${p.name}</td><td>ending ${p.iban.slice(-4)}</td><td>${p.reference || '—'}</td><td><a href="${href('/transfer', { to: `p:${p.id}` })}">${payToLabel(w, p.name)}</a></td></tr>`)}</tbody></table>`,
  );
}

function control(ctx: Ctx, f: PayeeForm, k: PayeeField): Raw {
  const w = ctx.state.variant.words;
  const id = `p-${k}`;
  const label = { name: w.payeeName, iban: w.iban, reference: w.reference }[k];
  const extra = k === 'iban' ? html` placeholder="e.g. GB82 WEST 1234 5698 7654 32" autocomplete="off"` : k === 'reference' ? html` placeholder="Optional"` : html``;
  return field(id, label, html`<input id="${id}" type="text" name="${k}" value="${f[k]}"${extra}${invalid(id, f.errors[k])}>`, f.errors[k]);
}

export function newPayeePage(ctx: Ctx, req: SiteRequest, f: PayeeForm): string {
  const s = ctx.state;
  const w = s.variant.words;
  return bankPage(
    ctx,
    req,
    w.addPayee,
    html`<h1>${w.addPayee}</h1>
<p>Payees are checked against their account number before you can pay them.</p>
${errorSummary(Object.values(f.errors))}
<form class="booking" method="post" action="${hrefs(ctx)('/payees/new')}" novalidate>
${s.variant.payeeFields.map((k) => control(ctx, f, k))}
<button type="submit" class="primary">${w.savePayee}</button>
</form>
<p><a href="${hrefs(ctx)('/payees')}">Back to ${w.navPayees.toLowerCase()}</a></p>`,
  );
}
