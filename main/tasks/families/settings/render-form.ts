/** Settings fields and forms as HTML, from their descriptions in forms.ts; errors shown beside the field they concern. */
import { attr, html, raw, type Raw } from '../common/html.ts';
import type { Look } from './look.ts';
import type { FieldSpec, FormSpec } from './forms.ts';

/** A form's values as the page should show them (saved ones, or what was just submitted) and its errors. */
export interface FormView {
  values: Record<string, string>;
  errors: Record<string, string>;
}

export function fieldId(key: string): string {
  return `f-${key.replace(/[^a-zA-Z0-9]+/g, '-')}`;
}

/** The label's words: shown ones plus those only a screen reader reads. */
export function labelText(f: FieldSpec): Raw {
  return html`${f.srBefore ? html`<span class="sr-only">${f.srBefore}</span>` : ''}${f.label}${f.srAfter ? html`<span class="sr-only">${f.srAfter}</span>` : ''}`;
}

function invalid(f: FieldSpec, v: FormView): Raw {
  return v.errors[f.key] ? html` aria-invalid="true" aria-describedby="${fieldId(f.key)}-err"` : raw('');
}

function errorLine(f: FieldSpec, v: FormView): Raw | '' {
  return v.errors[f.key] ? html`<p class="field-error" id="${fieldId(f.key)}-err">${v.errors[f.key]}</p>` : '';
}

export function renderField(f: FieldSpec, v: FormView): Raw {
  const id = fieldId(f.key);
  const value = v.values[f.key] ?? '';
  switch (f.kind) {
    case 'text':
    case 'email':
    case 'tel':
      return html`<div class="field"><label for="${id}">${labelText(f)}</label><input id="${id}" type="${f.kind}" name="${f.key}" value="${value}"${invalid(f, v)}>${errorLine(f, v)}</div>`;
    case 'textarea':
      return html`<div class="field"><label for="${id}">${labelText(f)}</label><textarea id="${id}" name="${f.key}" rows="3"${invalid(f, v)}>${value}</textarea>${errorLine(f, v)}</div>`;
    case 'select':
      return html`<div class="field"><label for="${id}">${labelText(f)}</label><select id="${id}" name="${f.key}"${invalid(f, v)}>${(f.options ?? []).map((o) => html`<option value="${o.value}"${attr('selected', o.value === value)}>${o.label}</option>`)}</select>${errorLine(f, v)}</div>`;
    case 'checkbox':
      return html`<div class="field"><label class="check"><input type="checkbox" name="${f.key}" value="1"${attr('checked', value === '1')}${invalid(f, v)}> ${labelText(f)}</label>${errorLine(f, v)}</div>`;
    case 'radio':
      return html`<fieldset${v.errors[f.key] ? html` aria-invalid="true"` : ''}><legend>${labelText(f)}</legend>
${(f.options ?? []).map((o) => html`<label class="check"><input type="radio" name="${f.key}" value="${o.value}"${attr('checked', o.value === value)}> ${o.label}</label> `)}
${errorLine(f, v)}</fieldset>`;
  }
}

/** The error summary at the top of a form that did not save. */
export function errorSummary(v: FormView): Raw | '' {
  const errs = Object.values(v.errors);
  return errs.length ? html`<div class="errors" role="alert"><p>Nothing was saved. Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : '';
}

/** A block of a settings page, boxed the way this site boxes them (classes site.css already styles, plus settings-* hooks). */
export function block(look: Look, id: string, heading: string, body: Raw): Raw {
  const cls = { plain: 'settings-block', cards: 'settings-block card', compact: 'settings-block compact', boxed: 'settings-block summary' }[look.blocks];
  return html`<section class="${cls}" id="${id}" aria-labelledby="${id}-h"><h2 id="${id}-h">${heading}</h2>${body}</section>`;
}

/** Fields laid out in a row on compact sites, stacked elsewhere. */
export function fieldGroup(look: Look, fields: Raw[]): Raw {
  return look.blocks === 'compact' ? html`<div class="row">${fields}</div>` : html`${fields}`;
}

/** A whole value form: hidden form id, fields, its own submit button, and optional extra controls after it. */
export function renderForm(look: Look, action: string, form: FormSpec, v: FormView, fieldsHtml?: Raw, after?: Raw): Raw {
  return html`<form method="post" action="${action}" class="settings-form" novalidate>
<input type="hidden" name="form" value="${form.id}">
${errorSummary(v)}
${fieldsHtml ?? fieldGroup(look, form.fields.map((f) => renderField(f, v)))}
<div class="toolbar"><button type="submit" class="primary">${form.submit}</button>${after ?? ''}</div>
</form>`;
}
