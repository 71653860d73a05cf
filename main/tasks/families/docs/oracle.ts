/**
 * The docs oracle: a state machine on the URL and the page's controls. It finds every control by
 * the instance's own wording (state.ui), so it reads each site as it is laid out and labelled.
 * Routes: the contents (module, then function), the version selector, the search with its filters,
 * the feedback buttons and the report form. A stray vote from a detour is withdrawn first.
 */
import type { AgentTurn } from '../../agent.ts';
import type { TaskSpec } from '../../types.ts';
import type { Observation } from '../../../environment/types.ts';
import { sameText } from '../../../common/normalize.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { majorOf } from './library.ts';
import { apiKey, findFunction, pageExists, pagePath, pageTitle, parsePagePath, type PageKey } from './site-map.ts';
import { sectionLabel } from './pages-search.ts';
import { moduleLabel, versionOption } from './wording.ts';
import type { Ctx, DocsGoal } from './state.ts';

const turn = (thought: string, action: string): AgentTurn => ({ thought, action });

export class DocsOracle extends OracleAgent {
  readonly name = 'oracle:docs';
  /** Changelog versions read so far (tier 3 reads the release of each of two functions). */
  private changelogsRead = 0;
  constructor(private readonly ctx: Ctx) {
    super();
  }

  override reset(task: TaskSpec): void {
    super.reset(task);
    this.changelogsRead = 0;
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const undo = this.withdrawStrayVote(obs);
    if (undo) return undo;
    switch (g.kind) {
      case 'fact':
        return this.fact(obs, g);
      case 'guide-search':
        return this.guideSearch(obs, g);
      case 'helpful':
        return this.helpful(obs, g);
      case 'report':
        return this.report(obs, g.page, g.title, g.description, `Reported "${g.title}".`);
      case 'compare-report':
        return this.compareReport(obs, g);
    }
  }

  private where(obs: Observation): { path: string; query: URLSearchParams; at: { major: number; key: PageKey } | null } {
    const { path, query } = instancePath(obs.url);
    return { path, query, at: parsePagePath(this.ctx.state, path) };
  }

  /** A vote the task did not ask for (or the wrong one on its page, which voting again replaces) is withdrawn on its page. */
  private withdrawStrayVote(obs: Observation): AgentTurn | null {
    const s = this.ctx.state;
    const asked = s.goal.kind === 'helpful' ? s.goal.page : undefined;
    const stray = Object.keys(s.feedback).find((k) => k !== asked);
    if (!stray) return null;
    const { at } = this.where(obs);
    if (at?.key === stray) {
      const b = find(obs, 'button', s.ui.withdraw);
      if (b) return turn('I voted on this page by mistake; withdraw it.', act.click(b));
    }
    return turn('A vote went to the wrong page; open that page.', act.goto(this.ctx.baseUrl + pagePath(s, stray, s.lib.latest)));
  }

  /** One step towards a page in a version: the version selector first, then the contents. */
  private navigate(obs: Observation, key: PageKey, major: number): AgentTurn {
    const s = this.ctx.state;
    const { at } = this.where(obs);
    if (!at) return turn('Back to the documentation.', act.goto(`${this.ctx.baseUrl}/v${major}/`));
    if (at.major !== major) {
      const option = versionOption(s.ui, major, s.lib.latest);
      const pick = selectIfNeeded(obs, s.ui.versionSelect, option, String(major));
      if (pick) return turn(`Choose ${option} in the version selector.`, pick);
      const go = find(obs, 'button', s.ui.versionButton);
      if (go) return turn(`Switch to ${option}.`, act.click(go));
      return turn(`No version selector here; open the ${option} home.`, act.goto(`${this.ctx.baseUrl}/v${major}/`));
    }
    let link;
    if (key === 'changelog') link = find(obs, 'link', s.ui.changelog);
    else if (key.startsWith('guide:')) link = find(obs, 'link', pageTitle(s, key));
    else if (key.startsWith('module:')) link = find(obs, 'link', moduleLabel(s.ui, key.slice(7)));
    else if (key.startsWith('api:')) {
      const fn = findFunction(s, key.slice(4))!;
      link = find(obs, 'link', fn.id) ?? find(obs, 'link', moduleLabel(s.ui, fn.module));
    }
    if (link) return turn(`Open ${link.name}.`, act.click(link));
    return turn('Unexpected page; go to the version home.', act.goto(`${this.ctx.baseUrl}/v${major}/`));
  }

  private fact(obs: Observation, g: Extract<DocsGoal, { kind: 'fact' }>): AgentTurn {
    const { at } = this.where(obs);
    if (at && at.key === apiKey(g.fn) && at.major === g.version) {
      const what = g.ask === 'since' ? `${g.fn} was added in` : g.ask === 'type' ? `The type of ${g.param} in ${g.fn} is` : `In v${g.version}.x the default of ${g.param} in ${g.fn} is`;
      return turn(`The page says ${g.answer}.`, act.say(`${what} ${g.answer}.`));
    }
    return this.navigate(obs, apiKey(g.fn), g.version);
  }

  private guideSearch(obs: Observation, g: Extract<DocsGoal, { kind: 'guide-search' }>): AgentTurn {
    const s = this.ctx.state;
    const { path, query } = this.where(obs);
    if (path === '/search' && sameText(query.get('q') ?? '', g.fn)) {
      if (query.get('section') === 'guides' && query.get('v') === String(g.version)) return turn(`The guide is ${g.answer}.`, act.say(`The guide that mentions ${g.fn} is "${g.answer}".`));
      const steps: Array<[string, string | null]> = [
        ['Only guides.', selectIfNeeded(obs, s.ui.sectionFilter, sectionLabel(s, 'guides'), 'guides')],
        [`In v${g.version}.x.`, selectIfNeeded(obs, s.ui.versionFilter, versionOption(s.ui, g.version, s.lib.latest), String(g.version))],
      ];
      for (const [thought, a] of steps) if (a) return turn(thought, a);
      const apply = find(obs, 'button', s.ui.applyFilters);
      if (apply) return turn('Apply the filters.', act.click(apply));
    }
    const box = find(obs, ['searchbox', 'textbox'], s.ui.searchBox);
    if (box) {
      if (!sameText(box.value ?? '', g.fn)) return turn(`Search for ${g.fn}.`, act.fill(box, g.fn));
      return turn('Run the search.', act.press(box, 'Enter'));
    }
    return turn('Unexpected page; go home.', act.goto(`${this.ctx.baseUrl}/v${s.lib.latest}/`));
  }

  private helpful(obs: Observation, g: Extract<DocsGoal, { kind: 'helpful' }>): AgentTurn {
    const s = this.ctx.state;
    if (s.feedback[g.page] === (g.helpful ? 'yes' : 'no')) return turn('The vote is recorded.', act.say(`Done: ${pageTitle(s, g.page)} is marked ${g.helpful ? 'helpful' : 'not helpful'}.`));
    const { at } = this.where(obs);
    if (at?.key === g.page) {
      const b = find(obs, 'button', g.helpful ? s.ui.yes : s.ui.no);
      if (b) return turn(`Answer "${b.name}".`, act.click(b));
    }
    return this.navigate(obs, g.page, at && pageExists(s, g.page, at.major) ? at.major : s.lib.latest);
  }

  /** Open the page, follow its report link, fill the form (the page is chosen already when coming from it), submit. */
  private report(obs: Observation, page: PageKey, title: string, description: string, done: string): AgentTurn {
    const s = this.ctx.state;
    if (s.issues.some((i) => i.page === page && sameText(i.title, title))) return turn('The issue is filed.', act.say(done));
    const { path, at } = this.where(obs);
    if (path === '/report') {
      const steps: Array<[string, string | null]> = [
        ['The title.', fillIfNeeded(obs, 'textbox', s.ui.issueTitle, title)],
        ['The page.', selectIfNeeded(obs, s.ui.issuePage, pageTitle(s, page), page)],
        ['The description.', fillIfNeeded(obs, 'textbox', s.ui.issueDescription, description)],
      ];
      for (const [thought, a] of steps) if (a) return turn(thought, a);
      const submit = find(obs, 'button', s.ui.submitIssue);
      if (submit) return turn('Submit the issue.', act.click(submit));
    }
    if (at?.key === page) {
      const link = find(obs, 'link', s.ui.reportLink);
      if (link) return turn('Open the report form.', act.click(link));
    }
    return this.navigate(obs, page, at && pageExists(s, page, at.major) ? at.major : s.lib.latest);
  }

  /** Read the changelog of the version that added each function (newest first), then report on the later one's page. */
  private compareReport(obs: Observation, g: Extract<DocsGoal, { kind: 'compare-report' }>): AgentTurn {
    const s = this.ctx.state;
    const majors = [...new Set([g.later, g.earlier].map((id) => majorOf(findFunction(s, id)!.since)))];
    const { at } = this.where(obs);
    if (at?.key === 'changelog' && at.major === majors[this.changelogsRead]) this.changelogsRead++;
    if (this.changelogsRead < majors.length) return this.navigate(obs, 'changelog', majors[this.changelogsRead]);
    const description = `This page lists ${g.count} parameters; ${g.later} was added after ${g.earlier}.`;
    return this.report(obs, apiKey(g.later), g.title, description, `${g.earlier} was added first; reported the parameter count of ${g.later} (${g.count}).`);
  }
}
