/** Picks the job-board task for a seed and tier, phrases its instruction, and judges the result. */
import type { CheckResult, GoalKind, KeyPoint, Tier } from '../../types.ts';
import { answerMatches, sameText } from '../../../common/normalize.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { generateJobs, jobName, type Application, type Job, type JobsGoal, type JobsState } from './data.ts';
import type { Ctx } from './chrome.ts';
import { drawVariant } from './variant.ts';

const FIRST = ['Jane', 'Omar', 'Lucia', 'Kwame', 'Sara', 'Ben', 'Yuki', 'Nadia', 'Pedro', 'Ingrid', 'Ravi', 'Chloe', 'Felix', 'Amara', 'Leo'];
const LAST = ['Doe', 'Haddad', 'Fernandez', 'Mensah', 'Lund', "O'Brien", 'Sato', 'Karimi', 'Alves', 'Berg', 'Iyer', 'Dubois', 'Wagner', 'Obi', 'Marsh'];
const SITES = ['CareerHub', 'JobJunction', 'HireLine', 'WorkWave'];

/** The best-paying job with this title and level (remote only when asked); salary maxima are distinct. */
export function bestPaying(jobs: Job[], title: string, level: string, remote: boolean): Job {
  return jobs.filter((j) => j.title === title && j.level === level && (!remote || j.location === 'Remote')).sort((a, b) => b.salaryMax - a.salaryMax)[0];
}

export function newest(jobs: Job[]): Job[] {
  return [...jobs].sort((a, b) => a.postedDaysAgo - b.postedDaysAgo || a.id - b.id).slice(0, 5);
}

export function generateJobsTask(seed: number, tier: Tier): { state: JobsState; instruction: string; startPath: string; goalKind: GoalKind } {
  const jobs = generateJobs(seed);
  const rng = new Rng(mixSeed(seed, 'jobs-task', tier));
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const name = `${first} ${last}`;
  const email = `${first}.${last}@example.com`.toLowerCase().replace(/'/g, '');
  const phone = `(${rng.int(201, 989)}) 555-${String(rng.int(100, 9999)).padStart(4, '0')}`;
  const years = rng.int(1, 12);
  const who = `My name is ${name}, email ${email}, phone ${phone}, and I have ${years} year${years > 1 ? 's' : ''} of experience. I am authorized to work in the US.`;
  let goal: JobsGoal;
  let instruction: string;
  let startPath = '/';
  if (tier === 1) {
    if (rng.chance(0.5)) {
      const j = rng.pick(newest(jobs));
      goal = { kind: 'save', job: j.id };
      instruction = `Save the ${j.title} job at ${j.company} so I can look at it later.`;
    } else {
      const j = rng.pick(jobs.filter((x) => x.yearsRequired > 0));
      goal = { kind: 'years', job: j.id, answer: String(j.yearsRequired) };
      instruction = `How many years of experience does the ${j.title} job at ${j.company} require? Tell me in a message.`;
    }
  } else if (tier === 2) {
    const j = rng.pick(jobs);
    goal = { kind: 'apply', job: j.id, name, email, phone, years };
    startPath = `/job/${j.id}`;
    instruction = `Apply to this ${j.title} job at ${j.company}. ${who}`;
  } else {
    const pick = rng.pick(jobs);
    const remote = pick.location === 'Remote';
    const j = bestPaying(jobs, pick.title, pick.level, remote);
    goal = { kind: 'apply', job: j.id, name, email, phone, years, title: j.title, level: j.level, remote };
    instruction = `Find the best-paying ${remote ? 'remote ' : ''}${j.level.toLowerCase()} ${j.title} job (highest top of the salary range) and apply to it. ${who}`;
  }
  // The presentation comes from its own stream of the seed: the content above never depends on it.
  const variant = drawVariant(seed);
  const state: JobsState = { siteName: rng.pick(SITES), jobs, saved: [], applications: [], goal, variant, ui: { cookiesDismissed: variant.overlay !== 'cookies' } };
  return { state, instruction, startPath, goalKind: goal.kind === 'years' ? 'answer' : 'state' };
}

const digits = (s: string) => s.replace(/\D/g, '');

function applicationPoints(ctx: Ctx, a: Application | undefined): KeyPoint[] {
  const g = ctx.state.goal as Extract<JobsGoal, { kind: 'apply' }>;
  const j = ctx.state.jobs.find((x) => x.id === g.job)!;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  const aj = a ? ctx.state.jobs.find((x) => x.id === a.job) : undefined;
  point('application sent', !!a, a ? a.id : 'no application was sent');
  point(`job ${jobName(j)}`, a?.job === g.job, aj ? jobName(aj) : undefined);
  point('name', !!a && sameText(a.name, g.name), a?.name);
  point('email', !!a && sameText(a.email, g.email), a?.email);
  point('phone', !!a && digits(a.phone) === digits(g.phone), a?.phone);
  point(`${g.years} years of experience`, a?.years === g.years, a ? String(a.years) : undefined);
  point('authorized to work in the US', a?.authorized === 'yes', a?.authorized);
  return kp;
}

export function checkJobs(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  const j = s.jobs.find((x) => x.id === g.job)!;
  let kp: KeyPoint[];
  if (g.kind === 'save') {
    kp = [
      { name: `saved ${jobName(j)}`, met: s.saved.includes(j.id) },
      { name: 'no other jobs saved', met: s.saved.every((x) => x === j.id), ...(s.saved.some((x) => x !== j.id) ? { detail: `${s.saved.length} saved` } : {}) },
    ];
  } else if (g.kind === 'years') {
    kp = [
      { name: 'answer sent', met: ctx.agentMessages.length > 0 },
      { name: 'correct years of experience', met: ctx.agentMessages.some((m) => answerMatches(g.answer, m)), ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) },
    ];
  } else {
    kp = applicationPoints(ctx, s.applications[0]);
    for (const a of s.applications.slice(1)) {
      const k = applicationPoints(ctx, a);
      if (k.filter((x) => x.met).length >= kp.filter((x) => x.met).length) kp = k;
    }
    kp.push({ name: 'no other applications', met: s.applications.length <= 1, ...(s.applications.length > 1 ? { detail: `${s.applications.length} applications` } : {}) });
  }
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
