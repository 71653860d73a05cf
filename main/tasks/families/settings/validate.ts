/** Validation of submitted settings: every error is a sentence that says what to fix; nothing is saved while any remains. */
import type { FieldSpec, FormSpec } from './forms.ts';

const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;
export const EMAIL_RE = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;

function ruleError(f: FieldSpec, v: string): string | null {
  switch (f.rule) {
    case 'name':
      if (!v) return `Enter a ${f.label.toLowerCase()}.`;
      if (v.length < 2 || v.length > 40) return `${f.label} must be 2 to 40 characters long.`;
      return NAME_RE.test(v) ? null : `${f.label} may contain only letters, spaces, hyphens and apostrophes.`;
    case 'email':
      if (!v) return 'Enter an email address.';
      return EMAIL_RE.test(v) ? null : 'Enter a valid email address, e.g. name@example.com.';
    case 'phone':
      if (!v) return 'Enter a phone number.';
      return /^[\d\s()+.\-]+$/.test(v) && v.replace(/\D/g, '').length === 10 ? null : 'Enter a 10-digit phone number.';
    case 'signature':
      return v.length > 300 ? 'A signature can be at most 300 characters long.' : null;
    default:
      return null;
  }
}

/** A form's submitted values, each field read as its kind submits it, with the errors found. */
export function readForm(form: FormSpec, body: URLSearchParams): { values: Record<string, string>; errors: Record<string, string> } {
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const f of form.fields) {
    const raw = body.get(f.key) ?? '';
    if (f.kind === 'checkbox') {
      values[f.key] = raw === '1' ? '1' : '0';
      continue;
    }
    const v = f.kind === 'textarea' ? raw.replace(/\r\n/g, '\n').trim() : raw.trim();
    values[f.key] = v;
    if (f.options) {
      // An empty radio group is allowed here; forms that need a choice say so below.
      if (v && !f.options.some((o) => o.value === v)) errors[f.key] = `Choose one of the listed options for ${f.label.toLowerCase()}.`;
      else if (!v && f.kind === 'select') errors[f.key] = `Choose ${f.label.toLowerCase()}.`;
      continue;
    }
    const e = ruleError(f, v);
    if (e) errors[f.key] = e;
  }
  if (form.id === 'twofactor') {
    if (values['twofactor.enabled'] === '1' && !values['twofactor.method'] && !errors['twofactor.method']) errors['twofactor.method'] = 'Choose how you want to receive sign-in codes.';
    // Codes off: no method is kept, so the page shows none chosen.
    if (values['twofactor.enabled'] !== '1') values['twofactor.method'] = '';
  }
  if (form.id === 'notifications' && !values.digest && !errors.digest) errors.digest = 'Choose how often you want a digest.';
  return { values, errors };
}

/** The password change's errors, by field ('current', 'new', 'confirm'); none means it may be saved. */
export function passwordErrors(saved: string, current: string, next: string, confirm: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!current) errors.current = 'Enter your current password.';
  else if (current !== saved) errors.current = 'Your current password is not correct.';
  if (!next) errors.new = 'Enter a new password.';
  else if (next.length < 10) errors.new = 'The new password must be at least 10 characters long.';
  else if (!/[A-Za-z]/.test(next) || !/\d/.test(next)) errors.new = 'The new password must contain at least one letter and one number.';
  else if (next === saved) errors.new = 'The new password must be different from your current password.';
  if (!errors.new && confirm !== next) errors.confirm = 'The two new passwords do not match.';
  return errors;
}
