/**
 * The browser environment: one episode at a time on a fresh, isolated page.
 * reset() opens the task's start URL; step() parses, executes, settles and observes, and always
 * returns within the step timeout with either no error or exactly one named error.
 */
import type { BrowserHost, CdpSession, PageHandle } from './cdp.ts';
import { ActionParseError, parseAction } from './actions.ts';
import { DEFAULT_ACTION_SETS, actionSetOf, checkActionSets, type ActionSetName } from './action-sets.ts';
import { ActionError, executeAction, type MouseState } from './execute.ts';
import { observeElements } from './observe.ts';
import type { TextLayout } from './observe-text.ts';
import { PageState, type DialogPolicy } from './page-state.ts';
import { callExpression, drawMarks, installSettleTracker, removeMarks } from './page-scripts.ts';
import type { Observation, PageElement, Screenshot, StepError, StepResult } from './types.ts';
import { allowedLoopbackOrigins, guardLoopback } from './loopback-guard.ts';
import { PageActivity, type StepActivity } from './page-activity.ts';
import { RemoteFrames } from './remote-frames.ts';

export interface EnvOptions {
  viewport: { width: number; height: number };
  /** Upper bound for action + settle of one step. */
  stepTimeoutMs: number;
  /** Upper bound for reading the page after a step. */
  observeTimeoutMs: number;
  /**
   * How long the DOM must stay unchanged to count as settled, besides the work the page is known
   * to have pending (requests, short timers the action started, running animations, a loading
   * document), which settle waits for as such. 15 ms until 2026-12-07; 5 ms settles a step that
   * changed the page in place in 7 ms instead of 18, with every oracle and the fidelity suites as
   * before (docs/benchmarks.md, Environment).
   */
  settleQuietMs: number;
  /** Longest wait for the page to settle within a step. */
  settleMaxMs: number;
  screenshots: boolean;
  /** Draw set-of-marks boxes with element ids on screenshots. */
  marks: boolean;
  /**
   * Longest side of a screenshot in pixels: a larger viewport is captured scaled down by Chromium
   * (marks and all), for vision models whose image tokens grow with the pixels. Unset: viewport size.
   */
  screenshotMaxSide?: number;
  dialogs: DialogPolicy;
  /** Prepare the next episode's page while this one runs. */
  prefetchPage: boolean;
  /**
   * Page text as the page shows it (`sentences`), or the layout observations had before issue 18
   * (`runs`), for evaluating a policy trained on that. LAB_TEXT_LAYOUT=runs sets the default.
   */
  textLayout: TextLayout;
  /**
   * The action sets an agent may use (action-sets.ts); an action of another set fails its step
   * with `action_not_allowed` and the page is not touched. Default: all but `coord`.
   */
  actionSets: readonly ActionSetName[];
}

export const DEFAULT_ENV_OPTIONS: EnvOptions = {
  viewport: { width: 1024, height: 768 },
  stepTimeoutMs: 10_000,
  observeTimeoutMs: 5_000,
  settleQuietMs: 5,
  settleMaxMs: 3_000,
  screenshots: false,
  marks: true,
  dialogs: 'dismiss',
  prefetchPage: true,
  textLayout: process.env.LAB_TEXT_LAYOUT === 'runs' ? 'runs' : 'sentences',
  actionSets: DEFAULT_ACTION_SETS,
};

export interface EpisodeStart {
  instruction: string;
  startUrl: string;
  allowedOrigins?: string[];
}

/** Errors after which the page cannot be used any more. */
const FATAL: ReadonlySet<StepError['code']> = new Set(['renderer_crashed']);
/** When a step raises several faults, the most telling one is recorded. */
const SEVERITY: StepError['code'][] = [
  'renderer_crashed', 'page_hang', 'step_timeout', 'navigation_failed', 'dialog_opened', 'popup_blocked',
];

class StepTimeout extends Error {}

export class BrowserEnv {
  readonly options: EnvOptions;
  private page: PageHandle | null = null;
  private state: PageState | null = null;
  private activity: PageActivity | null = null;
  private frames: RemoteFrames | null = null;
  private episode: EpisodeStart | null = null;
  private messages: string[] = [];
  private spare: Promise<PageHandle> | null = null;
  private lastElements: PageElement[] = [];
  private mouse: MouseState = { buttons: 0 };

  constructor(
    private host: BrowserHost,
    options: Partial<EnvOptions> = {},
  ) {
    this.options = { ...DEFAULT_ENV_OPTIONS, ...options };
    // Checked and put in one order, so the header records equal choices alike; undefined reads as the default.
    this.options.actionSets = checkActionSets(this.options.actionSets ?? DEFAULT_ACTION_SETS);
  }

  /** The host's sandbox state, for the episode header. */
  get sandbox(): BrowserHost['sandbox'] {
    return this.host.sandbox;
  }

  get session(): CdpSession {
    if (!this.page) throw new Error('no episode is running: call reset() first');
    return this.page.session;
  }

  /** Elements of the last observation (ids resolve against the live page). */
  get elements(): readonly PageElement[] {
    return this.lastElements;
  }

  async reset(start: EpisodeStart): Promise<Observation> {
    // The old page goes away in the background; the next one is usually ready already.
    const old = this.detachPage();
    if (old) void old.dispose().catch(() => {});
    this.episode = start;
    this.messages = [];
    this.mouse = { buttons: 0 }; // a fresh page has no button held
    this.page = (await this.takeSpare()) ?? (await this.preparePage().catch(() => this.preparePage()));
    this.spare = this.options.prefetchPage ? this.preparePage() : null;
    const session = this.page.session;
    this.state = new PageState(session, this.options.dialogs);
    // From here to the first step's observation, the page's load is what step 0 records.
    this.activity = new PageActivity(session);
    const tree = await session.send('Page.getFrameTree');
    this.state.mainFrameId = tree.frameTree.frame.id;
    // Before the first request: the page may reach its own and the task's origins on this machine,
    // no other port there. The proxy outside the browser decides (where the host has one); the
    // in-browser guard is a second layer behind it, and the only one without it.
    const network = this.page.network;
    network?.allow([start.startUrl, ...(start.allowedOrigins ?? [])]);
    const allowed = allowedLoopbackOrigins(start.startUrl, start.allowedOrigins ?? []);
    const guard = (s: CdpSession) => guardLoopback(s, allowed, { behindProxy: network !== undefined });
    await guard(session);
    // Frames of other sites run in processes of their own: each is held until it carries the same guard.
    if (RemoteFrames.supported(session)) {
      this.frames = new RemoteFrames(session, guard);
      await this.frames.start();
    }
    const deadline = Date.now() + this.options.stepTimeoutMs;
    let error: StepError | null = null;
    const navigatedAt = Date.now();
    const nav = await session.send('Page.navigate', { url: start.startUrl });
    if (nav.errorText) error = { code: 'navigation_failed', message: `${nav.errorText} loading ${start.startUrl}` };
    else if ((await this.state.settle(deadline, this.options.settleQuietMs, navigatedAt)) === 'loading') {
      await session.send('Page.stopLoading').catch(() => {});
      error = { code: 'step_timeout', message: `${start.startUrl} was still loading after ${this.options.stepTimeoutMs} ms; loading was stopped` };
    }
    const faults = this.state.takeFaults();
    return this.observe(this.explained(error ?? pickError(faults)));
  }

  /**
   * The browser under this episode's page went away (its connection closed): which one and why;
   * null while it lives, and for hosts that cannot tell. A renderer crash is not this.
   */
  lostBrowser(): { endpoint: string; reason: string } | null {
    const browser = this.page?.browser;
    const reason = browser?.lost();
    return browser && reason ? { endpoint: browser.endpoint, reason } : null;
  }

  /** The page made ahead, unless it failed or its browser has gone since (a pool then hands out one from a live browser). */
  private async takeSpare(): Promise<PageHandle | null> {
    const spare = this.spare;
    this.spare = null;
    const page = spare ? await spare.catch(() => null) : null;
    if (page?.browser?.lost()) {
      void page.dispose().catch(() => {});
      return null;
    }
    return page;
  }

  /** Replace the instruction observations carry (a page that states its own task, read after reset). */
  setInstruction(instruction: string): void {
    if (!this.episode) throw new Error('no episode is running: call reset() first');
    this.episode = { ...this.episode, instruction };
  }

  async step(actionText: string): Promise<StepResult> {
    if (!this.page || !this.state || !this.episode) throw new Error('no episode is running: call reset() first');
    const state = this.state;
    const t0 = performance.now();
    const navigationsBefore = state.navigations;
    state.takeFaults(); // faults from between steps belong to the previous observation
    if (state.crashed) {
      const observation = this.emptyObservation({ code: 'renderer_crashed', message: 'the page renderer crashed earlier' });
      return { observation, error: observation.lastActionError, done: true, timing: timing(t0, t0, t0, t0), activity: this.takeActivity() };
    }

    let actionError: StepError | null = null;
    let done = false;
    let tAction = t0;
    try {
      const action = parseAction(actionText);
      const set = actionSetOf(action.type);
      if (!this.options.actionSets.includes(set)) {
        throw new ActionError('action_not_allowed', `${action.type} is in the action set '${set}', which is not allowed here (allowed: ${this.options.actionSets.join(', ')})`);
      }
      const deadline = Date.now() + this.options.stepTimeoutMs;
      const actedAt = Date.now();
      const outcome = await this.withStepTimeout(async () => {
        const out = await executeAction(
          { session: this.session, viewport: this.options.viewport, allowedOrigins: this.episode!.allowedOrigins ?? [], mouse: this.mouse, frames: this.frames ?? undefined },
          action,
        );
        tAction = performance.now();
        // Stop settling a little before the step deadline so a slow load is reported as such.
        // Timers the action started (a menu that opens after 300 ms) are waited for too.
        const settled = await state.settle(Math.min(deadline - 100, Date.now() + this.options.settleMaxMs), this.options.settleQuietMs, actedAt);
        if (settled === 'loading') {
          // Like a person pressing Esc: stop the slow load so the page can be read and used.
          await this.session.send('Page.stopLoading').catch(() => {});
          throw new ActionError('step_timeout', `the page was still loading after ${Math.round(performance.now() - t0)} ms; loading was stopped`);
        }
        return out;
      }, deadline);
      if (outcome.message !== undefined) {
        this.messages.push(outcome.message);
        done = true;
      }
      if (outcome.infeasible !== undefined) done = true;
    } catch (err) {
      actionError = await this.classify(err);
    }
    if (tAction === t0) tAction = performance.now();
    const tSettled = performance.now();
    const error = this.explained(pickError([...(actionError ? [actionError] : []), ...state.takeFaults()]));
    if (error && FATAL.has(error.code)) done = true;
    const observation = await this.observe(error);
    const tObserved = performance.now();
    if (state.crashed) done = true;
    return { observation, error, done, timing: { ...timing(t0, tAction, tSettled, tObserved), navigated: state.navigations !== navigationsBefore }, activity: this.takeActivity() };
  }

  /** The page's console and network since the previous observation; the next window starts now. */
  private takeActivity(): StepActivity {
    const activity = this.activity?.take() ?? { console: [], requests: [], droppedConsole: 0, droppedRequests: 0 };
    // What the proxy refused: the page's own requests are in `requests` too, its workers' only here.
    const refused = this.page?.network?.takeRefused();
    return refused ? { ...activity, refused } : activity;
  }

  /** Read the page: element list, and a screenshot when enabled. Never throws. */
  /**
   * A failed navigation through the network guard reads as the browser saw it (the proxy closed
   * the connection: ERR_EMPTY_RESPONSE); the guard knows why (no such name, nothing listening), so
   * the message says that too.
   */
  private explained(error: StepError | null): StepError | null {
    if (error?.code !== 'navigation_failed') return error;
    const url = / loading (\S+)$/.exec(error.message)?.[1];
    const why = url ? this.page?.network?.whyUnreachable(url) : null;
    return why ? { ...error, message: `${error.message} (${why})` } : error;
  }

  async observe(lastActionError: StepError | null = null): Promise<Observation> {
    const state = this.state!;
    if (state.crashed) return this.emptyObservation(lastActionError ?? { code: 'renderer_crashed', message: 'the page renderer crashed' });
    try {
      return await this.withStepTimeout(async () => {
        const session = this.session;
        const [{ elements }, info] = await Promise.all([
          observeElements(session, this.options.viewport, this.options.textLayout, this.frames?.list()),
          session.send('Runtime.evaluate', {
            expression: '({ url: location.href, title: document.title })',
            returnByValue: true,
          }),
        ]);
        this.lastElements = elements;
        const screenshot = this.options.screenshots ? await this.screenshot(elements) : undefined;
        return {
          url: info.result.value.url,
          title: info.result.value.title,
          instruction: this.episode!.instruction,
          elements,
          screenshot,
          lastActionError,
          messages: [...this.messages],
        };
      }, Date.now() + this.options.observeTimeoutMs);
    } catch (err) {
      const observeError = await this.classify(err);
      return this.emptyObservation(lastActionError ?? observeError);
    }
  }

  private async screenshot(elements: PageElement[]): Promise<Screenshot> {
    const session = this.session;
    const marks = this.options.marks
      ? elements
          .filter((e) => e.inViewport && e.role !== 'text')
          .map((e) => [e.id, e.box.x, e.box.y, e.box.width, e.box.height] as [string, number, number, number, number])
      : [];
    if (marks.length) await session.send('Runtime.evaluate', { expression: callExpression(drawMarks, marks) });
    try {
      const { width, height } = this.options.viewport;
      const maxSide = this.options.screenshotMaxSide;
      const scale = maxSide && maxSide < Math.max(width, height) ? maxSide / Math.max(width, height) : 1;
      if (scale === 1) {
        const shot = await session.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true });
        return { png: Buffer.from(shot.data, 'base64'), width, height };
      }
      // A clip is in document coordinates: start it where the page is scrolled to, to get what is on screen.
      const metrics = await session.send('Page.getLayoutMetrics');
      const clip = { x: metrics.cssVisualViewport.pageX, y: metrics.cssVisualViewport.pageY, width, height, scale };
      const shot = await session.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, clip });
      return { png: Buffer.from(shot.data, 'base64'), width: Math.round(width * scale), height: Math.round(height * scale) };
    } finally {
      if (marks.length) await session.send('Runtime.evaluate', { expression: callExpression(removeMarks) });
    }
  }

  private emptyObservation(error: StepError | null): Observation {
    return {
      url: '',
      title: '',
      instruction: this.episode?.instruction ?? '',
      elements: [],
      lastActionError: error,
      messages: [...this.messages],
    };
  }

  /** Run fn, but give up at the deadline or when the renderer crashes. */
  private async withStepTimeout<T>(fn: () => Promise<T>, deadline: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StepTimeout()), Math.max(0, deadline - Date.now()));
    });
    const crashed = this.state!.crashedSignal.then(() => {
      throw new ActionError('renderer_crashed', 'the page renderer crashed');
    });
    try {
      return await Promise.race([fn(), timeout, crashed]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Name what went wrong; after a timeout, tell a hung page from a slow one and unstick it. */
  private async classify(err: unknown): Promise<StepError> {
    if (err instanceof ActionParseError) return { code: 'malformed_action', message: err.message };
    if (err instanceof ActionError) return { code: err.code, message: err.message };
    if (err instanceof StepTimeout) {
      if (this.state!.crashed) return { code: 'renderer_crashed', message: 'the page renderer crashed' };
      if (this.state!.loading) {
        // Waiting on the network, not on a script: stop the load, as a person pressing Esc would.
        await this.session.send('Page.stopLoading').catch(() => {});
        return { code: 'step_timeout', message: `the page was still loading after ${this.options.stepTimeoutMs} ms; loading was stopped` };
      }
      const responsive = await this.probe(1000);
      if (responsive) return { code: 'step_timeout', message: `the step did not finish within ${this.options.stepTimeoutMs} ms` };
      // The page's main thread is stuck (e.g. an endless loop): stop the running script.
      await this.session.send('Runtime.terminateExecution').catch(() => {});
      const recovered = await this.probe(1000);
      return {
        code: 'page_hang',
        message: `the page stopped responding (a script kept its main thread busy)${recovered ? '; the script was terminated' : ''}`,
      };
    }
    if (this.state?.crashed) return { code: 'renderer_crashed', message: 'the page renderer crashed' };
    return { code: 'action_failed', message: err instanceof Error ? err.message : String(err) };
  }

  private async probe(ms: number): Promise<boolean> {
    const ok = this.session.send('Runtime.evaluate', { expression: '1', returnByValue: true }).then(
      () => true,
      () => false,
    );
    return Promise.race([ok, new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  }

  /**
   * A fresh isolated page with the environment's instrumentation, not yet navigated. Making it
   * costs a browser context and a renderer (a good part of a reset), so one is made ahead.
   */
  private preparePage(): Promise<PageHandle> {
    const prepared = (async () => {
      const page = await this.host.newPage(this.options.viewport);
      const session = page.session;
      try {
        await Promise.all([
          session.send('Page.enable'),
          session.send('Runtime.enable'),
          // Browser-side messages (failed loads, interventions) for the step's console record.
          session.send('Log.enable').catch(() => {}),
          session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
          session.send('Inspector.enable').catch(() => {}),
          session.send('Page.addScriptToEvaluateOnNewDocument', { source: callExpression(installSettleTracker) }),
        ]);
      } catch (err) {
        // A page whose browser went away while it was being set up: nobody will hold it, so its
        // context and its network proxy (a listening socket of this process) are released here.
        await page.dispose().catch(() => {});
        throw err;
      }
      return page;
    })();
    prepared.catch(() => {}); // a spare that failed is replaced at the next reset
    return prepared;
  }

  private detachPage(): PageHandle | null {
    this.state?.dispose();
    this.state = null;
    this.activity?.dispose();
    this.activity = null;
    this.frames?.dispose();
    this.frames = null;
    const page = this.page;
    this.page = null;
    return page;
  }

  async close(): Promise<void> {
    const page = this.detachPage();
    const spare = this.spare;
    this.spare = null;
    await Promise.all([page?.dispose(), spare?.then((p) => p.dispose(), () => {})]);
  }
}

function pickError(errors: StepError[]): StepError | null {
  if (!errors.length) return null;
  let best = errors[0];
  for (const e of errors) {
    const rank = (x: StepError) => {
      const i = SEVERITY.indexOf(x.code);
      return i < 0 ? SEVERITY.length : i;
    };
    if (rank(e) < rank(best)) best = e;
  }
  return best;
}

function timing(t0: number, tAction: number, tSettled: number, tObserved: number) {
  const r = (x: number) => Math.round(x * 10) / 10;
  return { actionMs: r(tAction - t0), settleMs: r(tSettled - tAction), observeMs: r(tObserved - tSettled), totalMs: r(tObserved - t0) };
}
