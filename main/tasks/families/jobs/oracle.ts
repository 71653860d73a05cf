/**
 * The job-board oracle: a state machine on the URL path and the page's controls. Every control is
 * found by the name this instance gave it (the variant's words in the state), never by a fixed
 * label, and forms are filled in the order the page shows them, so the oracle stays right under
 * every wording, order and layout. The cookie banner, where there is one, is closed first (the
 * base class knows every wording of it); a job saved by mistake is unsaved before anything else.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded, startsWith } from '../common/oracle.ts';
import { jobName, type Job, type JobsGoal } from './data.ts';
import type { Ctx } from './chrome.ts';
import { jobLabel, type ApplyField, type FilterKey } from './variant.ts';

type Turn = AgentTurn | null;
type Apply = Extract<JobsGoal, { kind: 'apply' }>;

export class JobsOracle extends OracleAgent {
  readonly name = 'oracle:jobs';
  protected override readonly overlay = 'A cookie banner';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get s() {
    return this.ctx.state;
  }

  private get w() {
    return this.ctx.state.variant.words;
  }

  protected decide(obs: Observation): AgentTurn {
    const g = this.s.goal;
    const j = this.s.jobs.find((x) => x.id === g.job)!;
    const { path, query } = instancePath(obs.url);
    // Tier 3 names no job: the best-paying one is found by searching its title.
    const ranked = g.kind === 'apply' && g.title !== undefined ? g : null;
    return (
      this.unsaveStray(obs, path) ??
      this.done(g, j, path) ??
      (path === `/job/${j.id}` ? this.onJob(obs, g) : null) ??
      (g.kind === 'apply' && path === `/job/${j.id}/apply` ? this.fillApplication(obs, g) : null) ??
      (ranked ? this.findBestPaying(obs, ranked, j, path, query) : this.openJob(obs, j)) ??
      this.search(obs, ranked ? ranked.title! : `${j.title} ${j.company}`) ?? { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') }
    );
  }

  /** A job saved by mistake is unsaved first, on its page, found through the saved list. */
  private unsaveStray(obs: Observation, path: string): Turn {
    const g = this.s.goal;
    const stray = this.s.saved.find((x) => x !== (g.kind === 'save' ? g.job : -1));
    if (stray === undefined) return null;
    if (path === `/job/${stray}`) {
      const b = find(obs, 'button', this.w.unsave);
      if (b) return { thought: 'This job was saved by mistake; unsave it.', action: act.click(b) };
    }
    const sj = this.s.jobs.find((x) => x.id === stray)!;
    const link = path === '/saved' ? find(obs, 'link', jobLabel(this.w, sj)) : find(obs, 'link', startsWith(`${this.w.navSaved} (`));
    return link ? { thought: 'A job was saved by mistake; find it to unsave it.', action: act.click(link) } : null;
  }

  /** The goal is reached: say so. */
  private done(g: JobsGoal, j: Job, path: string): Turn {
    if (g.kind === 'save' && this.s.saved.includes(j.id)) return { thought: 'The job is saved.', action: act.say(`Saved the ${jobName(j)} job.`) };
    const am = path.match(/^\/application\/([\w-]+)$/);
    if (g.kind === 'apply' && am && this.s.applications.some((a) => a.job === j.id)) return { thought: 'The application is sent.', action: act.say(`Applied to ${jobName(j)}; reference ${am[1]}.`) };
    return null;
  }

  /** On the wanted posting: answer, save it, or open its application form. */
  private onJob(obs: Observation, g: JobsGoal): Turn {
    const j = this.s.jobs.find((x) => x.id === g.job)!;
    if (g.kind === 'years') return { thought: `It asks for ${g.answer} years.`, action: act.say(`The ${jobName(j)} job requires at least ${g.answer} years of experience.`) };
    const b = g.kind === 'save' ? find(obs, 'button', this.w.save) : find(obs, 'link', this.w.applyNow);
    return b ? { thought: g.kind === 'save' ? 'Save the job.' : 'Open the application form.', action: act.click(b) } : null;
  }

  /** The application form, field by field in the order it shows them, then agree and submit. */
  private fillApplication(obs: Observation, g: Apply): Turn {
    const w = this.w;
    // The optional fields (source, cover letter) are left as they are.
    const step: Partial<Record<ApplyField, () => [string, string | null]>> = {
      name: () => ['Enter my name.', fillIfNeeded(obs, 'textbox', w.fullName, g.name)],
      email: () => ['Enter my email.', fillIfNeeded(obs, 'textbox', w.email, g.email)],
      phone: () => ['Enter my phone.', fillIfNeeded(obs, 'textbox', w.phone, g.phone)],
      years: () => ['Enter my years of experience.', fillIfNeeded(obs, 'spinbutton', w.years, String(g.years))],
      authorized: () => {
        const yes = find(obs, 'radio', w.yes);
        return ['I am authorized to work in the US.', yes && yes.checked !== true ? act.click(yes) : null];
      },
    };
    for (const k of this.s.variant.applyFields) {
      const [thought, a] = step[k]?.() ?? ['', null];
      if (a) return { thought, action: a };
    }
    const agree = find(obs, 'checkbox', w.agree);
    if (agree && agree.checked !== true) return { thought: 'Agree to the privacy policy.', action: act.click(agree) };
    const submit = find(obs, 'button', w.submit);
    return submit ? { thought: 'Submit the application.', action: act.click(submit) } : null;
  }

  /**
   * Tier 3: on the results for the title, set the filters to that level (and remote where asked),
   * nothing else, sorted by salary; the first result is then the one. Null elsewhere.
   */
  private findBestPaying(obs: Observation, g: Apply, j: Job, path: string, query: URLSearchParams): Turn {
    if (path !== '/jobs' || (query.get('q') ?? '').toLowerCase() !== g.title!.toLowerCase() || query.get('location')) return null;
    const w = this.w;
    const remote = !!g.remote;
    const filtered = query.get('level') === g.level && query.get('sort') === 'salary' && (query.get('remote') === '1') === remote && !query.get('type') && !query.get('min_salary');
    if (filtered) {
      const link = find(obs, 'link', jobLabel(w, j));
      return link ? { thought: `The first result, ${jobName(j)}, pays best.`, action: act.click(link) } : null;
    }
    const step: Record<FilterKey, () => [string, string | null]> = {
      type: () => ['Any job type.', selectIfNeeded(obs, w.type, 'Any type', '')],
      level: () => [`${g.level} only.`, selectIfNeeded(obs, w.level, g.level!)],
      minSalary: () => ['Any salary.', selectIfNeeded(obs, w.minSalary, 'Any salary', '')],
      remote: () => {
        const rem = find(obs, 'checkbox', w.remote);
        return [remote ? 'Remote jobs only.' : 'Not only remote jobs.', rem && (rem.checked === true) !== remote ? act.click(rem) : null];
      },
      sort: () => ['Highest salary first.', selectIfNeeded(obs, w.sort, w.sortSalary, 'salary')],
    };
    for (const k of this.s.variant.filters) {
      const [thought, a] = step[k]();
      if (a) return { thought, action: a };
    }
    const apply = find(obs, 'button', w.applyFilters);
    return apply ? { thought: 'Apply the filters.', action: act.click(apply) } : null;
  }

  /** Tiers 1 and 2: the posting's link, wherever it shows. */
  private openJob(obs: Observation, j: Job): Turn {
    const link = find(obs, 'link', jobLabel(this.w, j));
    return link ? { thought: `Open ${jobName(j)}.`, action: act.click(link) } : null;
  }

  /** Search the board from the header for `want`, in any location. */
  private search(obs: Observation, want: string): Turn {
    const box = find(obs, ['searchbox', 'textbox'], this.w.keyword);
    if (!box) return null;
    if ((box.value ?? '').trim().toLowerCase() !== want.toLowerCase()) return { thought: `Search for ${want}.`, action: act.fill(box, want) };
    const loc = find(obs, 'textbox', this.w.location);
    if (loc && (loc.value ?? '').trim()) return { thought: 'Any location.', action: act.fill(loc, '') };
    return { thought: 'Run the search.', action: act.press(box, 'Enter') };
  }
}
