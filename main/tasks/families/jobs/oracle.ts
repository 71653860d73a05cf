/** The job-board oracle: a state machine on the URL path and the page's controls. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { jobName, type Ctx } from './pages.ts';

export class JobsOracle extends OracleAgent {
  readonly name = 'oracle:jobs';
  protected override readonly overlay = 'A cookie banner';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const j = s.jobs.find((x) => x.id === g.job)!;
    const { path, query } = instancePath(obs.url);

    // A job saved by mistake is unsaved first (on its page).
    const stray = s.saved.find((x) => x !== (g.kind === 'save' ? j.id : -1));
    if (stray !== undefined) {
      if (path === `/job/${stray}`) {
        const b = find(obs, 'button', 'Unsave job');
        if (b) return { thought: 'This job was saved by mistake; unsave it.', action: act.click(b) };
      }
      const sj = s.jobs.find((x) => x.id === stray)!;
      const link = path === '/saved' ? find(obs, 'link', jobName(sj)) : find(obs, 'link', /^Saved jobs/);
      if (link) return { thought: 'A job was saved by mistake; find it to unsave it.', action: act.click(link) };
    }

    if (g.kind === 'save' && s.saved.includes(j.id)) return { thought: 'The job is saved.', action: act.say(`Saved the ${jobName(j)} job.`) };
    const am = path.match(/^\/application\/([\w-]+)$/);
    if (g.kind === 'apply' && am && s.applications.some((a) => a.job === j.id)) return { thought: 'The application is sent.', action: act.say(`Applied to ${jobName(j)}; reference ${am[1]}.`) };

    if (path === `/job/${j.id}`) {
      if (g.kind === 'years') return { thought: `It asks for ${g.answer} years.`, action: act.say(`The ${jobName(j)} job requires at least ${g.answer} years of experience.`) };
      if (g.kind === 'save') {
        const b = find(obs, 'button', 'Save job');
        if (b) return { thought: 'Save the job.', action: act.click(b) };
      }
      if (g.kind === 'apply') {
        const b = find(obs, 'link', 'Apply now');
        if (b) return { thought: 'Open the application form.', action: act.click(b) };
      }
    }

    if (g.kind === 'apply' && path === `/job/${j.id}/apply`) {
      const steps: Array<[string, string | null]> = [
        ['Enter my name.', fillIfNeeded(obs, 'textbox', 'Full name', g.name)],
        ['Enter my email.', fillIfNeeded(obs, 'textbox', 'Email', g.email)],
        ['Enter my phone.', fillIfNeeded(obs, 'textbox', 'Phone', g.phone)],
        ['Enter my years of experience.', fillIfNeeded(obs, 'spinbutton', 'Years of experience', String(g.years))],
      ];
      for (const [thought, a] of steps) if (a) return { thought, action: a };
      const yes = find(obs, 'radio', 'Yes');
      if (yes && yes.checked !== true) return { thought: 'I am authorized to work in the US.', action: act.click(yes) };
      const agree = find(obs, 'checkbox', 'I agree to the privacy policy');
      if (agree && agree.checked !== true) return { thought: 'Agree to the privacy policy.', action: act.click(agree) };
      const submit = find(obs, 'button', 'Submit application');
      if (submit) return { thought: 'Submit the application.', action: act.click(submit) };
    }

    const ranked = g.kind === 'apply' && g.title !== undefined;
    if (ranked && path === '/jobs' && (query.get('q') ?? '').toLowerCase() === g.title!.toLowerCase()) {
      const want = { level: g.level!, sort: 'salary', remote: !!g.remote };
      if (query.get('level') !== want.level || query.get('sort') !== want.sort || (query.get('remote') === '1') !== want.remote) {
        const steps: Array<[string, string | null]> = [
          [`${want.level} only.`, selectIfNeeded(obs, 'Experience level', want.level)],
          ['Highest salary first.', selectIfNeeded(obs, 'Sort by', 'Salary (highest first)', 'salary')],
        ];
        for (const [thought, a] of steps) if (a) return { thought, action: a };
        const rem = find(obs, 'checkbox', 'Remote only');
        if (rem && (rem.checked === true) !== want.remote) return { thought: want.remote ? 'Remote jobs only.' : 'Not only remote jobs.', action: act.click(rem) };
        const apply = find(obs, 'button', 'Apply filters');
        if (apply) return { thought: 'Apply the filters.', action: act.click(apply) };
      } else {
        const link = find(obs, 'link', jobName(j));
        if (link) return { thought: `The first result, ${jobName(j)}, pays best.`, action: act.click(link) };
      }
    }
    if (!ranked) {
      const link = find(obs, 'link', jobName(j));
      if (link) return { thought: `Open ${jobName(j)}.`, action: act.click(link) };
    }
    const box = find(obs, ['searchbox', 'textbox'], 'Job title or keyword');
    if (box) {
      const want = ranked ? g.title! : `${j.title} ${j.company}`;
      if ((box.value ?? '').trim().toLowerCase() !== want.toLowerCase()) return { thought: `Search for ${want}.`, action: act.fill(box, want) };
      const loc = find(obs, 'textbox', 'Location');
      if (loc && (loc.value ?? '').trim()) return { thought: 'Any location.', action: act.fill(loc, '') };
      return { thought: 'Run the search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
