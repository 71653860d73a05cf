/** The wiki oracle: visits the articles that hold the answer (search, links, back), then answers. */
import type { AgentTurn } from '../../agent.ts';
import type { TaskSpec } from '../../types.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, find, instancePath } from '../common/oracle.ts';
import { titleFromPath } from '../common/site.ts';
import type { Ctx } from './pages.ts';

export class WikiOracle extends OracleAgent {
  readonly name = 'oracle:wiki';
  /** How many articles of the goal's path have been read so far. */
  private read = 0;
  constructor(private readonly ctx: Ctx) {
    super();
  }

  override reset(task: TaskSpec): void {
    super.reset(task);
    this.read = 0;
  }

  protected decide(obs: Observation): AgentTurn {
    const g = this.ctx.state.goal;
    const { path } = instancePath(obs.url);
    const title = titleFromPath(path, '/wiki/');
    // A path may name the page it is on twice in a row (the winner of a superlative, read again).
    while (this.read < g.path.length && title === g.path[this.read]) this.read++;
    if (this.read >= g.path.length) return { thought: `The ${g.label} is ${g.answer}.`, action: act.say(`The answer is ${g.answer}.`) };
    const next = g.path[this.read];
    const link = find(obs, 'link', next);
    if (link) return { thought: `Open the article on ${next}.`, action: act.click(link) };
    // Between the cities of a country, go back to the country's list.
    if (g.kind === 'superlative' && this.read > 1 && title === g.path[this.read - 1]) return { thought: 'Back to the list of cities.', action: act.goBack() };
    const box = find(obs, ['searchbox', 'textbox'], 'Search the wiki');
    if (box) {
      if ((box.value ?? '').trim() !== next) return { thought: `Search for ${next}.`, action: act.fill(box, next) };
      return { thought: 'Go to the article.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go to the main page.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
