/**
 * The docs checker. Answers are compared as the other answer families compare them (normalised,
 * numbers by value); votes and issues are read from the site's state. Every vote or issue the task
 * did not ask for is a side effect with a key point of its own.
 */
import type { CheckResult, KeyPoint } from '../../types.ts';
import { answerMatches, sameText } from '../../../common/normalize.ts';
import { pageTitle } from './site-map.ts';
import type { Ctx, DocsGoal, Issue } from './state.ts';

type ReportGoal = Extract<DocsGoal, { kind: 'report' | 'compare-report' }>;

function answerPoints(ctx: Ctx, answer: string, what: string): KeyPoint[] {
  const last = ctx.agentMessages.at(-1);
  return [
    { name: 'answer sent', met: ctx.agentMessages.length > 0 },
    { name: `correct ${what}`, met: ctx.agentMessages.some((m) => answerMatches(answer, m)), ...(last ? { detail: last } : {}) },
  ];
}

function issuePoints(ctx: Ctx, g: ReportGoal, issue: Issue | undefined): KeyPoint[] {
  const s = ctx.state;
  const page = g.kind === 'report' ? g.page : `api:${g.later}`;
  const point = (name: string, met: boolean, detail?: string): KeyPoint => ({ name, met, ...(detail ? { detail } : {}) });
  return [
    point('issue filed', !!issue, issue?.code ?? 'no issue was filed'),
    point(`about ${pageTitle(s, page)}`, issue?.page === page, issue ? pageTitle(s, issue.page) : undefined),
    point('title', !!issue && sameText(issue.title, g.title), issue?.title),
    g.kind === 'report'
      ? point('description', !!issue && sameText(issue.description, g.description), issue?.description)
      : point(`description gives ${g.count} parameters`, !!issue && answerMatches(String(g.count), issue.description), issue?.description),
  ];
}

/** The filed issue closest to the goal (most key points met), as the tour checker picks among tours. */
function reportPoints(ctx: Ctx, g: ReportGoal): KeyPoint[] {
  const { issues } = ctx.state;
  let best = issuePoints(ctx, g, issues[0]);
  for (const i of issues.slice(1)) {
    const kp = issuePoints(ctx, g, i);
    if (kp.filter((k) => k.met).length > best.filter((k) => k.met).length) best = kp;
  }
  return [...best, { name: 'no other issues', met: issues.length <= 1, ...(issues.length > 1 ? { detail: `${issues.length} issues` } : {}) }];
}

/** Votes the task did not ask for; `asked` is the one page a feedback task may vote on. */
function strayVotes(ctx: Ctx, asked?: string): KeyPoint {
  const stray = Object.keys(ctx.state.feedback).filter((k) => k !== asked);
  return { name: 'no other feedback', met: stray.length === 0, ...(stray.length ? { detail: stray.map((k) => pageTitle(ctx.state, k)).join(', ') } : {}) };
}

const noIssues = (ctx: Ctx): KeyPoint => ({ name: 'no issue filed', met: ctx.state.issues.length === 0, ...(ctx.state.issues.length ? { detail: `${ctx.state.issues.length} issues` } : {}) });

export function checkDocs(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  let kp: KeyPoint[];
  if (g.kind === 'fact') kp = [...answerPoints(ctx, g.answer, g.ask === 'since' ? 'version' : g.ask === 'type' ? 'type' : `default of ${g.param}`), strayVotes(ctx), noIssues(ctx)];
  else if (g.kind === 'guide-search') kp = [...answerPoints(ctx, g.answer, 'guide'), strayVotes(ctx), noIssues(ctx)];
  else if (g.kind === 'helpful') {
    const want = g.helpful ? 'yes' : 'no';
    const got = s.feedback[g.page];
    kp = [{ name: `${pageTitle(s, g.page)} rated ${g.helpful ? 'helpful' : 'not helpful'}`, met: got === want, detail: got ?? 'no vote' }, strayVotes(ctx, g.page), noIssues(ctx)];
  } else kp = [...reportPoints(ctx, g), strayVotes(ctx)];
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
