/**
 * The forum oracle: a state machine on the URL path and the page's controls. Every control is
 * found by the words this instance uses (its Look), never by a fixed label, so the oracle is exact
 * under every variation; a follow, vote or digest sign-up left by a detour is undone first.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { sameText, normalizeText } from '../../../common/normalize.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { boardOf, type ForumGoal } from './data.ts';
import { newPosts, newThreads } from './check.ts';
import type { Ctx } from './chrome.ts';

type Turn = AgentTurn | null;
const turn = (thought: string, action: string | null | undefined): Turn => (action ? { thought, action } : null);

export class ForumOracle extends OracleAgent {
  readonly name = 'oracle:forum';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get s() {
    return this.ctx.state;
  }
  private get w() {
    return this.ctx.state.look.words;
  }

  protected decide(obs: Observation): AgentTurn {
    const g = this.s.goal;
    return this.closeOverlay(obs) ?? this.undoDetours(obs) ?? this.pursue(obs, g) ?? this.home(obs);
  }

  /** The instance's cookie banner or dialog, closed by its own "no" button. */
  private closeOverlay(obs: Observation): Turn {
    const b = find(obs, 'button', this.w.dismiss);
    return turn('A banner covers the page; dismiss it without signing up for anything.', b && act.click(b));
  }

  /** A follow or vote that differs from the start (and is not asked for), or the digest, is put back. */
  private undoDetours(obs: Observation): Turn {
    const s = this.s;
    const { path } = instancePath(obs.url);
    if (s.digest) {
      if (path === `/user/${encodeURIComponent(s.me)}`) return turn('I signed up for the digest by mistake; stop it.', this.click(obs, 'button', 'Stop the weekly digest'));
      return turn('Go to my profile to stop the digest.', this.click(obs, 'link', this.w.nav.profile));
    }
    const g = s.goal;
    const follow = g.kind === 'follow' || g.kind === 'ranked' ? g.thread : -1;
    const vote = g.kind === 'upvote' || (g.kind === 'ranked' && g.upvote) ? g.thread : -1;
    const wrong = (now: number[], was: number[], goal: number) => now.find((x) => !was.includes(x) && x !== goal) ?? was.find((x) => !now.includes(x));
    const f = wrong(s.followed, s.initial.followed, follow);
    const v = wrong(s.upvoted, s.initial.upvoted, vote);
    const id = f ?? v;
    if (id === undefined) return null;
    if (path !== `/thread/${id}`) return turn('A follow or vote changed by mistake; go back to that thread.', act.goto(`${this.ctx.baseUrl}/thread/${id}`));
    if (f !== undefined) return turn('Put the follow back as it was.', this.click(obs, 'button', s.followed.includes(f) ? this.w.unfollow : this.w.follow));
    return turn('Put the vote back as it was.', this.click(obs, 'button', s.upvoted.includes(v!) ? this.w.unvote : this.w.upvote));
  }

  private click(obs: Observation, role: string, name: string | ((n: string) => boolean)): string | null {
    const el = find(obs, role, name);
    return el ? act.click(el) : null;
  }

  private title(id: number): string {
    return this.s.threads.find((t) => t.id === id)!.title;
  }

  private pursue(obs: Observation, g: ForumGoal): Turn {
    const s = this.s;
    const w = this.w;
    const { path, query } = instancePath(obs.url);
    switch (g.kind) {
      case 'starter':
      case 'replies':
        if (path === `/thread/${g.thread}`) return turn(`The page shows it: ${g.answer}.`, act.say(g.kind === 'starter' ? `${g.answer} started the thread.` : `The thread has ${g.answer} replies.`));
        return turn('Open the thread from the list.', this.click(obs, 'link', this.title(g.thread)));
      case 'follow':
      case 'upvote': {
        const on = g.kind === 'follow' ? s.followed.includes(g.thread) : s.upvoted.includes(g.thread);
        if (on) return turn('Done.', act.say(`${g.kind === 'follow' ? 'Followed' : 'Upvoted'} "${this.title(g.thread)}".`));
        if (path === `/thread/${g.thread}`) return turn(`Press "${g.kind === 'follow' ? w.follow : w.upvote}".`, this.click(obs, 'button', g.kind === 'follow' ? w.follow : w.upvote));
        return turn('Open the thread from the list.', this.click(obs, 'link', this.title(g.thread)));
      }
      case 'reply':
        if (newPosts(s).some((p) => p.thread === g.thread)) return turn('The reply is posted.', act.say(`Replied to "${this.title(g.thread)}".`));
        if (path === `/thread/${g.thread}`) return this.writeReply(obs, g.text);
        return this.threadViaBoard(obs, g.thread);
      case 'new-thread': {
        if (newThreads(s).some((t) => sameText(t.title, g.title) && t.board === g.board)) return turn('The thread is up.', act.say(`Started the thread "${g.title}".`));
        if (path !== '/new') return turn(`Open "${w.nav.new}".`, this.click(obs, 'link', w.nav.new));
        const b = boardOf(s, g.board);
        const steps: Array<[string, string | null]> = [
          ['The title.', fillIfNeeded(obs, 'textbox', w.titleField, g.title)],
          [`The ${b.name} board.`, selectIfNeeded(obs, w.boardField, b.name, b.slug)],
          ['The message.', fillIfNeeded(obs, 'textbox', w.bodyField, g.text)],
        ];
        for (const [thought, a] of steps) if (a) return { thought, action: a };
        return turn('Post it.', this.click(obs, 'button', w.createButton));
      }
      case 'edit': {
        const post = s.posts.find((p) => p.id === g.post)!;
        if (normalizeText(post.body) === normalizeText(g.text)) return turn('The post is updated.', act.say(`Edited my reply in "${this.title(g.thread)}".`));
        if (path === `/post/${g.post}/edit`) return turn('New text.', fillIfNeeded(obs, 'textbox', w.editField, g.text)) ?? turn('Save.', this.click(obs, 'button', w.saveEdit));
        if (path === `/thread/${g.thread}`) return turn('My post has the edit link.', this.click(obs, 'link', w.edit)) ?? turn('My post is further on.', this.click(obs, 'link', w.next));
        return this.threadViaBoard(obs, g.thread);
      }
      case 'ranked': {
        const onThread = path === `/thread/${g.thread}`;
        const replied = newPosts(s).some((p) => p.thread === g.thread);
        if (!replied) {
          if (onThread) return this.writeReply(obs, `The opening post gives the ${g.label} as ${g.quote}.`);
          return g.keyword ? this.rankBySearch(obs, path, query, g) : this.rankOnBoard(obs, path, query, g);
        }
        if (!onThread) return turn('Back to the thread.', act.goto(`${this.ctx.baseUrl}/thread/${g.thread}`));
        if (!s.followed.includes(g.thread)) return turn(`Press "${w.follow}".`, this.click(obs, 'button', w.follow));
        if (g.upvote && !s.upvoted.includes(g.thread)) return turn(`Press "${w.upvote}".`, this.click(obs, 'button', w.upvote));
        return turn('All done.', act.say(`Replied to "${this.title(g.thread)}" quoting the ${g.label} ${g.quote}, and ${g.upvote ? 'followed and upvoted' : 'followed'} it.`));
      }
    }
  }

  private writeReply(obs: Observation, text: string): Turn {
    return turn('Write the reply.', fillIfNeeded(obs, 'textbox', this.w.replyBox, text)) ?? turn('Send it.', this.click(obs, 'button', this.w.replyButton));
  }

  /** Through the board's pages (default order) to the thread. */
  private threadViaBoard(obs: Observation, thread: number): Turn {
    const t = this.s.threads.find((x) => x.id === thread)!;
    const b = boardOf(this.s, t.board);
    const { path, query } = instancePath(obs.url);
    const link = turn(`Open "${t.title}".`, this.click(obs, 'link', t.title));
    if (path === `/board/${b.slug}`) {
      if (query.get('period') || query.get('sort')) return turn('Back to the plain board list.', act.goto(`${this.ctx.baseUrl}/board/${b.slug}`));
      return link ?? turn('Not on this page; the next one.', this.click(obs, 'link', this.w.next));
    }
    return turn(`Open the ${b.name} board.`, this.click(obs, 'link', b.name));
  }

  private rankOnBoard(obs: Observation, path: string, query: URLSearchParams, g: Extract<ForumGoal, { kind: 'ranked' }>): Turn {
    const b = boardOf(this.s, g.board);
    if (path !== `/board/${b.slug}`) return turn(`Open the ${b.name} board.`, this.click(obs, 'link', b.name));
    if (query.get('period') === '7' && query.get('sort') === 'replies') return turn('The first thread has the most replies this week.', this.click(obs, 'link', this.title(g.thread)));
    return this.filters(obs, false, g);
  }

  private rankBySearch(obs: Observation, path: string, query: URLSearchParams, g: Extract<ForumGoal, { kind: 'ranked' }>): Turn {
    const kw = g.keyword!;
    if (path === '/search' && normalizeText(query.get('q') ?? '') === normalizeText(kw)) {
      if (query.get('board') === g.board && query.get('period') === '7' && query.get('sort') === 'replies') return turn('The first result has the most replies.', this.click(obs, 'link', this.title(g.thread)));
      return this.filters(obs, true, g);
    }
    const box = find(obs, ['searchbox', 'textbox'], this.w.searchBox);
    if (!box) return null;
    if (normalizeText(box.value ?? '') !== normalizeText(kw)) return turn(`Search for ${kw}.`, act.fill(box, kw));
    return turn('Run the search.', act.press(box, 'Enter'));
  }

  /** This week's threads, most replies first (and the board, on the search page). */
  private filters(obs: Observation, withBoard: boolean, g: Extract<ForumGoal, { kind: 'ranked' }>): Turn {
    const w = this.w;
    const b = boardOf(this.s, g.board);
    const steps: Array<[string, string | null]> = [
      [`Only the ${b.name} board.`, withBoard ? selectIfNeeded(obs, w.boardFilter, b.name, b.slug) : null],
      ['Started in the last 7 days.', selectIfNeeded(obs, w.periodField, w.periods['7'], '7')],
      ['Most replies first.', selectIfNeeded(obs, w.sortField, w.sorts.replies, 'replies')],
    ];
    for (const [thought, a] of steps) if (a) return { thought, action: a };
    return turn('Apply the filters.', this.click(obs, 'button', w.apply));
  }

  /** Somewhere unexpected: back to the board index. */
  private home(obs: Observation): AgentTurn {
    return turn('Back to the board index.', this.click(obs, 'link', this.w.nav.index)) ?? { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
