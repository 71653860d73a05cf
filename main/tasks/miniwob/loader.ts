/**
 * MiniWoB++ from a user's local checkout, served through the task server: one family per task page
 * (`miniwob.<task>`), the checkout's html/ folder under each instance's prefix so the pages' own
 * relative links (../core/core.js, ../common/...) resolve.
 *
 * MiniWoB++'s protocol, as its harness drives it: the page loads core.js and shows a start cover;
 * the harness seeds the page's random numbers with Math.seedrandom(seed) and calls
 * core.startEpisodeReal(), which runs the task's genProblem() and writes the instruction into
 * #query. The page ends the episode itself with core.endEpisode(reward, timeProportional, reason),
 * which sets WOB_REWARD_GLOBAL, WOB_RAW_REWARD_GLOBAL, WOB_REWARD_REASON and WOB_DONE_GLOBAL.
 *
 * Here a small script added to the task page does the harness's part (seed, start) and tells the
 * task server the instruction and, when the page ends the episode, the globals it set. It reports
 * with a synchronous request, so the reward is on the server before the step that earned it
 * returns; the checker then reads it like any site's state. Success is raw reward > 0.
 *
 * As BrowserGym runs MiniWoB++ (so that numbers compare): the page seed for episode seed N is
 * BrowserGym's (browsergym-seed.ts); the human display (the instruction in #query, the reward
 * and time-left panel, the click canvas, the start cover) is taken out of the page while the
 * agent acts, and put back only while core.js itself reads or writes it; the episode's time limit
 * is BrowserGym's 1,000,000 ms unless asked for (MiniWoB++'s own is 10,000 ms).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize, relative, resolve } from 'node:path';
import type { Agent } from '../agent.ts';
import type { InstanceContext, PageReward, SiteRequest, SiteResponse, TaskFamily, Tier } from '../types.ts';
import { SEEDS } from '../families/common/seeds.ts';
import { callExpression } from '../../environment/page-scripts.ts';
import { browsergymPageSeed } from './browsergym-seed.ts';
import { oracleFor, whyNoOracle } from './oracles/index.ts';

export interface MiniwobOptions {
  /** core.EPISODE_MAX_TIME for every episode (default BrowserGym's 1,000,000 ms; MiniWoB++'s own is 10,000 ms). */
  episodeMaxTimeMs?: number;
  /** Leave the human display (instruction, reward, time left, start cover) in the page (BrowserGym removes it). */
  keepHumanDisplay?: boolean;
}

/**
 * How a collection run or an evaluation served its MiniWoB++ families, recorded with it so that a
 * continuation serves the same tasks the same way.
 */
export interface MiniwobServing {
  /** The checkout's html/ folder. */
  root: string;
  /** core.EPISODE_MAX_TIME, when not BrowserGym's 1,000,000 ms. */
  timeLimitMs?: number;
  /** The human display kept in the page (BrowserGym removes it). */
  humanDisplay?: boolean;
}

/** What to record for a checkout served with these options. */
export function miniwobServing(dir: string, options: MiniwobOptions = {}): MiniwobServing {
  return { root: findMiniwobRoot(dir), ...(options.episodeMaxTimeMs ? { timeLimitMs: options.episodeMaxTimeMs } : {}), ...(options.keepHumanDisplay ? { humanDisplay: true } : {}) };
}

/** The families of a recorded checkout, served as recorded. */
export function servedMiniwobFamilies(s: MiniwobServing): TaskFamily<MiniwobState>[] {
  return miniwobFamilies(s.root, { episodeMaxTimeMs: s.timeLimitMs, keepHumanDisplay: s.humanDisplay });
}

/** BrowserGym's default MiniWoB++ episode time limit. */
export const BROWSERGYM_EPISODE_MAX_TIME_MS = 1_000_000;

export interface MiniwobState {
  task: string;
  /** The checkout's html/ folder. */
  root: string;
  maxTimeMs: number;
  /** Math.seedrandom's argument: BrowserGym's page seed for the episode seed. */
  pageSeed: number;
  humanDisplay: 'removed' | 'kept';
  utterance?: string;
  reward?: PageReward;
  /** The page could not be started (no core.js protocol on it). */
  error?: string;
}

const REPORT_PATH = '/__lab/miniwob-report';
export const MINIWOB_PREFIX = 'miniwob.';

/**
 * The html/ folder of a checkout: DIR itself, DIR/html or DIR/miniwob/html (the current
 * repository layout), whichever holds miniwob/*.html and core/core.js.
 */
export function findMiniwobRoot(dir: string): string {
  const base = resolve(dir);
  const candidates = [base, join(base, 'html'), join(base, 'miniwob', 'html')];
  for (const c of candidates) {
    if (existsSync(join(c, 'core', 'core.js')) && existsSync(join(c, 'miniwob')) && statSync(join(c, 'miniwob')).isDirectory()) return c;
  }
  throw new Error(`--miniwob ${dir}: no MiniWoB++ checkout there (looked for core/core.js and miniwob/*.html in ${candidates.join(', ')})`);
}

export function miniwobTaskNames(root: string): string[] {
  return readdirSync(join(root, 'miniwob'))
    .filter((f) => f.endsWith('.html') && f !== 'index.html' && /^[a-z0-9][a-z0-9_-]*\.html$/i.test(f))
    .map((f) => f.slice(0, -'.html'.length))
    .sort();
}

export function miniwobFamilies(dir: string, options: MiniwobOptions = {}): TaskFamily<MiniwobState>[] {
  const root = findMiniwobRoot(dir);
  const names = miniwobTaskNames(root);
  if (!names.length) throw new Error(`--miniwob ${dir}: ${join(root, 'miniwob')} holds no task pages (*.html)`);
  const maxTimeMs = options.episodeMaxTimeMs ?? BROWSERGYM_EPISODE_MAX_TIME_MS;
  if (!Number.isInteger(maxTimeMs) || maxTimeMs < 1) throw new Error(`MiniWoB++ episode time must be a whole number of ms >= 1, got ${maxTimeMs}`);
  const humanDisplay = options.keepHumanDisplay ? 'kept' : 'removed';
  return names.map((task) => miniwobFamily(root, task, maxTimeMs, humanDisplay));
}

function miniwobFamily(root: string, task: string, maxTimeMs: number, humanDisplay: MiniwobState['humanDisplay']): TaskFamily<MiniwobState> {
  const pagePath = `/miniwob/${task}.html`;
  return {
    name: MINIWOB_PREFIX + task,
    description: `MiniWoB++ task ${task} from ${root}; the page states the task and reports its own reward`,
    seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
    checker: 'page',
    generate(seed: number, tier?: Tier) {
      const pageSeed = browsergymPageSeed(seed);
      return {
        // Replaced by the page's own #query once it has started (pageInstruction).
        instruction: `MiniWoB++ task ${task}: follow the instruction on the page.`,
        state: { task, root, maxTimeMs, pageSeed, humanDisplay },
        // Stated in the episode header: what makes this run comparable (or not) with BrowserGym's.
        harness: { name: 'miniwob', settings: { timeLimitMs: maxTimeMs, pageSeed, humanDisplay } },
        // The page's reward is the goal state; the page ends its own episode (isDone, reason
        // 'checker') before the episode runner would ask the checker.
        goalKind: 'state',
        // MiniWoB++ tasks are short and have no tiers of their own: tier 1's budget unless asked.
        tier: tier ?? 1,
        startPath: pagePath,
      };
    },
    handle(req, ctx) {
      if (req.path === REPORT_PATH) return report(req, ctx.state);
      if (req.method !== 'GET') return { kind: 'not_found' };
      if (req.path === '/') return { kind: 'redirect', location: pagePath };
      const file = fileUnder(root, req.path);
      if (!file) return { kind: 'not_found' };
      if (req.path === pagePath) return { kind: 'html', body: withHarness(readFileSync(file, 'utf8'), ctx) };
      return { kind: 'file', path: file };
    },
    check(ctx) {
      const { reward, error } = ctx.state;
      const keyPoints = [
        { name: 'the page started the task', met: ctx.state.utterance !== undefined && !error, ...(error ? { detail: error } : {}) },
        { name: 'the page ended the episode', met: !!reward, ...(reward?.reason ? { detail: reward.reason } : {}) },
        { name: 'positive raw reward', met: !!reward && reward.raw > 0, ...(reward ? { detail: `reward ${reward.value} (raw ${reward.raw})` } : {}) },
      ];
      return { success: !!reward && reward.raw > 0, keyPoints, ...(reward ? { reward } : {}) };
    },
    pageInstruction: (ctx) => ctx.state.utterance,
    isDone: (ctx) => !!ctx.state.reward,
    oracle(): Agent {
      const agent = oracleFor(task);
      if (!agent) throw new Error(`MiniWoB++ task ${task} has no oracle here (${whyNoOracle(task)}; use an agent such as random, or a model)`);
      return agent;
    },
  };
}

/** A path below the checkout's html/ folder, or null for anything outside it or missing. */
function fileUnder(root: string, urlPath: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath).replace(/^\/+/, '');
  } catch {
    return null;
  }
  const path = normalize(join(root, rel));
  const back = relative(root, path);
  if (!back || back.startsWith('..') || isAbsolute(back)) return null;
  try {
    return statSync(path).isFile() ? path : null;
  } catch {
    return null;
  }
}

function report(req: SiteRequest, state: MiniwobState): SiteResponse {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (req.method !== 'POST') return { kind: 'not_found' };
  if (body.event === 'ready' && typeof body.utterance === 'string') state.utterance = body.utterance;
  else if (body.event === 'error') state.error = String(body.message ?? 'the page could not start the task');
  else if (body.event === 'end' && !state.reward) {
    // The first end counts: MiniWoB++ ignores a second endEpisode too.
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v));
    const value = num(body.reward);
    const raw = num(body.raw);
    if (Number.isFinite(value) && Number.isFinite(raw)) state.reward = { value, raw, reason: body.reason == null ? null : String(body.reason) };
    else state.error = `the page reported a reward that is not a number: ${JSON.stringify(body)}`;
  } else return { kind: 'json', status: 400, body: { error: 'unknown report' } };
  return { kind: 'json', body: { ok: true } };
}

/** The task page with the harness script appended: seed, start, and report to the task server. */
function withHarness(page: string, ctx: InstanceContext<MiniwobState>): string {
  const reportUrl = new URL(ctx.baseUrl).pathname + REPORT_PATH;
  const { pageSeed, maxTimeMs, humanDisplay } = ctx.state;
  const script = `<script>${callExpression(harness, pageSeed, maxTimeMs, reportUrl, humanDisplay === 'removed').replace(/<\//g, '<\\/')};</script>`;
  const at = page.toLowerCase().lastIndexOf('</body>');
  return at >= 0 ? page.slice(0, at) + script + page.slice(at) : page + script;
}

/**
 * Runs in the page. Registered after the task's own window.onload (which shows MiniWoB++'s start
 * cover), so starting here replaces the click on the cover, as MiniWoB++'s own harness does.
 */
function harness(pageSeed: number, maxTimeMs: number, reportUrl: string, removeDisplay: boolean): void {
  const w = window as unknown as Record<string, any>;
  const post = (body: unknown) => {
    const x = new XMLHttpRequest();
    x.open('POST', reportUrl, false);
    x.setRequestHeader('content-type', 'application/json');
    try {
      x.send(JSON.stringify(body));
    } catch {
      // The task server is gone; the episode is ending anyway.
    }
  };
  // The human display: out of the page while the agent acts, back while core.js touches it.
  const DISPLAY_IDS = ['reward-display', 'click-canvas', 'sync-task-cover'];
  const taken = new Map<string, Element>();
  let queryHtml: string | null = null;
  const hideDisplay = () => {
    const core = w.core;
    // The time-left countdown writes into the panel every second: stop it while the panel is out.
    if (typeof core.clearTimer === 'function' && document.getElementById('timer-countdown')) core.clearTimer();
    if (typeof core.canvasDrawClick === 'function') document.body.removeEventListener('click', core.canvasDrawClick);
    const query = document.getElementById('query');
    if (query) {
      queryHtml = query.innerHTML;
      query.innerHTML = '';
    }
    for (const id of DISPLAY_IDS) {
      const el = document.getElementById(id);
      if (el) {
        taken.set(id, el);
        el.remove();
      }
    }
  };
  const showDisplay = () => {
    const query = document.getElementById('query');
    if (query && queryHtml !== null) query.innerHTML = queryHtml;
    for (const [id, el] of taken) if (!document.getElementById(id)) document.body.appendChild(el);
  };
  const aroundDisplay = <T,>(fn: () => T): T => {
    if (!removeDisplay) return fn();
    showDisplay();
    try {
      return fn();
    } finally {
      hideDisplay();
    }
  };
  const begin = () => {
    const core = w.core;
    if (!core || typeof core.startEpisodeReal !== 'function' || typeof core.endEpisode !== 'function' || typeof (Math as any).seedrandom !== 'function') {
      post({ event: 'error', message: 'the page does not follow the MiniWoB++ protocol (core.startEpisodeReal, core.endEpisode, Math.seedrandom)' });
      return;
    }
    if (w.WOB_TASK_READY === false) return void setTimeout(begin, 20);
    const end = core.endEpisode;
    core.endEpisode = function (this: unknown, ...args: unknown[]) {
      const out = aroundDisplay(() => end.apply(this, args));
      if (w.WOB_DONE_GLOBAL) post({ event: 'end', reward: w.WOB_REWARD_GLOBAL, raw: w.WOB_RAW_REWARD_GLOBAL, reason: w.WOB_REWARD_REASON ?? null });
      return out;
    };
    const utteranceOf = typeof core.getUtterance === 'function' ? core.getUtterance.bind(core) : () => document.getElementById('query')?.textContent ?? '';
    core.getUtterance = () => aroundDisplay(utteranceOf);
    core.EPISODE_MAX_TIME = maxTimeMs;
    // A number, as BrowserGym writes it: seedrandom reads 123 and '123' as different seeds.
    (Math as any).seedrandom(pageSeed);
    aroundDisplay(() => core.startEpisodeReal());
    // The nl tasks' getUtterance returns {utterance, fields} outside MiniWoB++'s test mode; as
    // BrowserGym does, the instruction is its utterance (the fields are for training, not the agent).
    const said = core.getUtterance();
    const utterance = said && typeof said === 'object' && 'utterance' in said ? said.utterance : said;
    post({ event: 'ready', utterance: String(utterance).replace(/\s+/g, ' ').trim() });
  };
  window.addEventListener('load', begin);
}
