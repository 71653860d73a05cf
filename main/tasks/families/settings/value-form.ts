/** A value form as it shows on its page: saved values, or what was just submitted with its errors when it did not validate. */
import type { Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import type { SettingsState } from './data.ts';
import { formById, pagePath, type FormSpec } from './forms.ts';
import type { Ctx } from './pages.ts';
import { renderForm, type FormView } from './render-form.ts';
import type { PageKey } from './vocabulary.ts';

/** A form that did not validate: its id and what to show in it again. */
export interface Draft {
  form: string;
  view: FormView;
}

export function viewOf(s: SettingsState, form: string, draft: Draft | undefined): FormView {
  return draft?.form === form ? draft.view : { values: s.values, errors: {} };
}

/** Render one of the site's value forms, posting back to the page it is on. */
export function valueForm(ctx: Ctx, page: PageKey, id: string, draft: Draft | undefined, fieldsHtml?: (f: FormSpec, v: FormView) => Raw, after?: Raw): Raw {
  const s = ctx.state;
  const form = formById(s, id)!;
  const v = viewOf(s, id, draft);
  return renderForm(s.look, hrefs(ctx)(pagePath(s.look, page)), form, v, fieldsHtml?.(form, v), after);
}
