/** The factbook oracle: closes the dialog, opens the record(s) by link or search, then answers. */
import type { AgentTurn } from '../../agent.ts';
import type { TaskSpec } from '../../types.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, find, instancePath } from '../common/oracle.ts';
import { titleFromPath } from '../common/site.ts';
import { RECORD_PREFIX, type Ctx } from './pages.ts';

export class FactbookOracle extends OracleAgent {
  readonly name = 'oracle:factbook';
  /** Records of the goal read so far (a comparison reads two). */
  private read = 0;
  constructor(private readonly ctx: Ctx) {
    super();
  }

  override reset(task: TaskSpec): void {
    super.reset(task);
    this.read = 0;
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const close = s.notice && !s.notice.dismissed ? find(obs, 'button', s.notice.close) : undefined;
    if (close) return { thought: 'A newsletter dialog covers the page; close it.', action: act.click(close) };
    const wanted = g.kind === 'compare' ? g.records : [g.record];
    const { path } = instancePath(obs.url);
    const title = titleFromPath(path, RECORD_PREFIX);
    if (title === wanted[this.read]) this.read++;
    if (this.read >= wanted.length) return { thought: `The ${g.label} is ${g.answer}.`, action: act.say(g.kind === 'compare' ? `${g.answer} has the higher ${g.label.toLowerCase()}.` : `The ${g.label.toLowerCase()} of ${g.kind === 'item' ? `the ${g.item.toLowerCase()} at ${g.record}` : g.record} is ${g.answer}.`) };
    const next = wanted[this.read];
    const link = find(obs, 'link', next);
    if (link) return { thought: `Open ${next}.`, action: act.click(link) };
    const box = find(obs, ['searchbox', 'textbox'], `Search ${s.kind}`);
    if (box) {
      if ((box.value ?? '').trim() !== next) return { thought: `Search for ${next}.`, action: act.fill(box, next) };
      return { thought: 'Run the search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
