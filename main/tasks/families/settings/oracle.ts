/**
 * The settings oracle. It knows what the saved settings should become (the generated ones with the
 * task applied) and works through what still differs: first changes a detour made where no task
 * part asked for one, then the task's parts, those on the page it is on before the others. It finds
 * every link, field and button by the wording this instance chose (forms.ts describes them), so
 * any order, synonym or navigation style reads the same to it.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { money } from '../common/html.ts';
import { OracleAgent, act, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { expectedValues, goalChanges, goalMet } from './check.ts';
import type { BlockedUser, Session, SettingsGoal } from './data.ts';
import { formatDate } from './format.ts';
import { accessibleName, invoicesPath, pagePath, pagesOf, rowName, rowNames, valueForms, type FormSpec } from './forms.ts';
import type { Ctx, Where } from './pages.ts';

type Job =
  | { kind: 'form'; form: FormSpec; stray: boolean }
  | { kind: 'password'; next: string }
  | { kind: 'signOut'; session: Session }
  | { kind: 'unblock'; user: BlockedUser }
  | { kind: 'export'; format: 'json' | 'csv' };

const sameLoosely = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

export class SettingsOracle extends OracleAgent {
  readonly name = 'oracle:settings';
  protected override readonly overlay = 'A cookie banner';
  /** Password fields typed since the last submit: browsers may not report a password field's value. */
  private typed = new Set<string>();

  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get look() {
    return this.ctx.state.look;
  }

  /** What still differs from the wanted settings, as jobs on pages. */
  private jobs(): Job[] {
    const s = this.ctx.state;
    const expected = expectedValues(s);
    const asked = new Set(s.goals.flatMap((g) => Object.keys(goalChanges(g))));
    const out: Job[] = [];
    for (const form of valueForms(s)) {
      const off = form.fields.filter((f) => (s.values[f.key] ?? '') !== (expected[f.key] ?? ''));
      if (off.length) out.push({ kind: 'form', form, stray: !off.some((f) => asked.has(f.key)) });
    }
    for (const g of s.goals) {
      if (goalMet(s, g, this.ctx.agentMessages)) continue;
      if (g.kind === 'password') out.push({ kind: 'password', next: g.next });
      // A device signed out or a person unblocked by mistake cannot be put back; only what is asked is done.
      if (g.kind === 'signOut') out.push({ kind: 'signOut', session: s.sessions.find((x) => x.id === g.session)! });
      if (g.kind === 'unblock') out.push({ kind: 'unblock', user: s.blocked.find((u) => u.id === g.user)! });
      if (g.kind === 'export') out.push({ kind: 'export', format: g.format });
    }
    return out;
  }

  private pageOf(job: Job): Where {
    if (job.kind === 'form') return job.form.page;
    return job.kind === 'password' || job.kind === 'signOut' ? 'security' : 'privacy';
  }

  private pathOf(where: Where): string {
    if (where === 'home') return '/';
    if (where === 'invoices') return invoicesPath(this.look);
    return pagePath(this.look, where);
  }

  /** Undo strays first; then prefer work on the page already open; then follow the site's own section order. */
  private nextJob(path: string): Job | undefined {
    const jobs = this.jobs();
    const stray = jobs.find((j) => j.kind === 'form' && j.stray);
    if (stray) return stray;
    const here = jobs.find((j) => this.pathOf(this.pageOf(j)) === path);
    if (here) return here;
    const order = pagesOf(this.look);
    return [...jobs].sort((a, b) => order.indexOf(this.pageOf(a) as never) - order.indexOf(this.pageOf(b) as never))[0];
  }

  /** One step towards a page: its link where one shows (menu, tabs, home cards), else back to the settings home. */
  private navigate(obs: Observation, where: Where, path: string): AgentTurn {
    const look = this.look;
    if (where === 'invoices') {
      if (path === pagePath(look, 'billing')) {
        const link = find(obs, 'link', look.invoicesLink);
        if (link) return { thought: `The invoices are behind "${look.invoicesLink}".`, action: act.click(link) };
      }
      return this.navigate(obs, 'billing', path);
    }
    if (where !== 'home') {
      const link = find(obs, 'link', look.titles[where]);
      if (link) return { thought: `Open "${look.titles[where]}".`, action: act.click(link) };
    }
    const home = find(obs, 'link', look.homeLink) ?? find(obs, 'link', this.ctx.state.siteName);
    if (home) return { thought: `Back to the settings home to find "${where === 'home' ? look.homeTitle : look.titles[where]}".`, action: act.click(home) };
    return { thought: 'Unexpected page; go to the settings home.', action: act.goto(this.ctx.baseUrl + '/') };
  }

  /** Set one field of a value form to what it should hold; null when it already does. */
  private fieldStep(obs: Observation, form: FormSpec, want: Record<string, string>): AgentTurn | null {
    for (const f of form.fields) {
      const target = want[f.key] ?? '';
      const name = accessibleName(f);
      if (f.kind === 'select') {
        const label = f.options!.find((o) => o.value === target)?.label ?? target;
        const a = selectIfNeeded(obs, name, label, target);
        if (a) return { thought: `${f.label}: ${label}.`, action: a };
      } else if (f.kind === 'checkbox') {
        const el = find(obs, 'checkbox', name);
        if (el && (el.checked === true) !== (target === '1')) return { thought: `${target === '1' ? 'Tick' : 'Untick'} "${name}".`, action: act.click(el) };
      } else if (f.kind === 'radio') {
        // An empty choice is left alone: the form keeps none when it does not need one.
        const label = f.options!.find((o) => o.value === target)?.label;
        const el = label ? find(obs, 'radio', label) : undefined;
        if (el && el.checked !== true) return { thought: `${f.label}: ${label}.`, action: act.click(el) };
      } else {
        const el = find(obs, 'textbox', name);
        if (el && !sameLoosely(el.value ?? '', target)) return { thought: `${f.label}: ${target}.`, action: act.fill(el, target) };
      }
    }
    return null;
  }

  private work(obs: Observation, job: Job): AgentTurn | null {
    const look = this.look;
    const s = this.ctx.state;
    if (job.kind === 'form') {
      const step = this.fieldStep(obs, job.form, expectedValues(s));
      if (step) return step;
      const save = find(obs, 'button', job.form.submit);
      return save ? { thought: `Save this part with "${job.form.submit}".`, action: act.click(save) } : null;
    }
    if (job.kind === 'password') {
      const L = look.labels;
      for (const [label, text] of [[L.currentPassword, s.password], [L.newPassword, job.next], [L.confirmPassword, job.next]] as const) {
        const el = find(obs, ['textbox', 'password'], label);
        if (el && !this.typed.has(label)) {
          this.typed.add(label);
          return { thought: `${label}.`, action: act.fill(el, text) };
        }
      }
      const b = find(obs, 'button', look.passwordButton);
      this.typed.clear();
      return b ? { thought: 'Change the password.', action: act.click(b) } : null;
    }
    if (job.kind === 'signOut') {
      const name = rowName(rowNames.signOut(look, job.session));
      const b = find(obs, 'button', name);
      return b ? { thought: `Sign out the ${job.session.device} in ${job.session.city}.`, action: act.click(b) } : null;
    }
    if (job.kind === 'unblock') {
      const b = find(obs, 'button', rowName(rowNames.unblock(look, job.user)));
      return b ? { thought: `Unblock ${job.user.name}.`, action: act.click(b) } : null;
    }
    const radio = find(obs, 'radio', look.exportLabels[job.format]);
    if (radio && radio.checked !== true) return { thought: `Export as ${job.format.toUpperCase()}.`, action: act.click(radio) };
    const b = find(obs, 'button', look.exportButton);
    return b ? { thought: 'Request the export.', action: act.click(b) } : null;
  }

  private answer(g: Extract<SettingsGoal, { kind: 'answer' }>): string {
    const s = this.ctx.state;
    const latest = [...s.billing.invoices].sort((a, b) => b.date.localeCompare(a.date))[0];
    if (g.topic === 'plan') return `Your account is on the ${s.billing.plan} plan.`;
    if (g.topic === 'invoiceDate') return `Your latest invoice is dated ${formatDate(this.look.dateStyle, latest.date)}.`;
    return `Your latest invoice was for ${money(latest.cents)}.`;
  }

  protected decide(obs: Observation): AgentTurn {
    const { path } = instancePath(obs.url);
    const job = this.nextJob(path);
    if (job) {
      const where = this.pageOf(job);
      if (path === this.pathOf(where)) {
        const step = this.work(obs, job);
        if (step) return step;
      }
      return this.navigate(obs, where, path);
    }
    const q = this.ctx.state.goals.find((g): g is Extract<SettingsGoal, { kind: 'answer' }> => g.kind === 'answer');
    if (q) {
      const where: Where = q.topic === 'plan' ? 'billing' : 'invoices';
      if (path === this.pathOf(where)) return { thought: 'The answer is on this page.', action: act.say(this.answer(q)) };
      return this.navigate(obs, where, path);
    }
    return { thought: 'Every change is saved.', action: act.say('Done: all the requested settings are saved.') };
  }
}
