/**
 * What an agent sees on real MiniWoB++ pages: per task and seed, the number of elements in the
 * first observation (after reset), how many have a role other than 'text', and whether the
 * task's targets are in the list with an id of their own (a non-text element). Written to
 * compare the observation code before and after issue 18's fidelity work (see
 * docs/miniwob-element-counts.json), so it keeps to APIs that exist at both commits:
 * miniwobFamilies(dir, options), TaskServer, ChromiumHost.start(), BrowserEnv.reset/session,
 * family.pageInstruction and renderObservationText. It reads the code of the checkout it runs in.
 *
 *   npx tsx scripts/miniwob-element-counts.ts --miniwob DIR [--tasks a,b,...] [--seeds 0,1,2,3,4] [--keep-display] [--legacy-page-seeds] [--text]
 *
 * --keep-display asks the loader to leave MiniWoB++'s human display (instruction, reward panel,
 * start cover) in the page; a loader without that option (before commit 1203d92) always leaves it.
 * --legacy-page-seeds seeds the page as the loader before 1203d92 did (Math.seedrandom(String(seed))
 * instead of BrowserGym's draw), so both commits show the same problem for a seed: a compatibility
 * path in this script only (it sets the instance's state.pageSeed), no change to the loader.
 * --text adds the rendered page text of each task's first seed.
 *
 * Whether a target is listed is decided in the page: the element list's ids are the elements'
 * data-lab-id attributes, so for each target the page names the DOM elements a click on which
 * reaches the task's handler (the target itself, or the row/item that holds the handler), and a
 * target is listed when one of them is a non-text element of the observation (for login-user, also
 * named after its field: two nameless textboxes cannot be told apart).
 * Prints JSON to stdout; progress to stderr.
 */
import { ChromiumHost } from '../main/environment/chromium.ts';
import { BrowserEnv } from '../main/environment/environment.ts';
import type { Observation } from '../main/environment/types.ts';
import { TaskServer } from '../main/tasks/server.ts';
import type { TaskFamily } from '../main/tasks/types.ts';
import { miniwobFamilies } from '../main/tasks/miniwob/loader.ts';
import { renderObservationText } from '../main/policy/observation-text.ts';

const DEFAULT_TASKS = ['navigate-tree', 'email-inbox', 'click-link', 'login-user', 'tic-tac-toe', 'use-autocomplete', 'click-tab-2', 'click-widget'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface TargetItem {
  /** What the item is (its text or DOM id). */
  label: string;
  /** data-lab-id of every element a click on which reaches the handler. */
  ids: string[];
  visible: boolean;
}
type TargetGroups = Record<string, TargetItem[]>;

/**
 * Runs in the page (as a string, so no transpiler helper sneaks in): the task's target groups.
 * `instruction` is the page's own, as the loader reported it.
 */
const TARGETS_JS = String.raw`(function (task, instruction) {
  var lab = function (el) { return el && el.getAttribute('data-lab-id'); };
  var vis = function (el) {
    if (!el || !el.isConnected) return false;
    var r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) return false;
    if (typeof el.checkVisibility === 'function') return el.checkVisibility({ checkVisibilityCSS: true });
    var s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  var ids = function (els) { return els.map(lab).filter(function (x) { return x != null; }); };
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var withInside = function (el, exclude) {
    return [el].concat(all('*', el).filter(function (d) { return !exclude || !d.closest(exclude); }));
  };
  var item = function (label, el, clickable) { return { label: label, ids: ids(clickable || [el]), visible: vis(el) }; };
  var quoted = (instruction.match(/"([^"]+)"/g) || []).map(function (q) { return q.slice(1, -1); });
  var g = {};
  if (task === 'click-link' || task === 'click-tab-2') {
    var links = all('span.alink');
    g.links = links.map(function (el) { return item(el.textContent, el); });
    g.target = links.filter(function (el) { return el.innerHTML === quoted[0]; }).map(function (el) { return item(el.textContent, el); });
    if (task === 'click-tab-2') g.tabs = all('#area > ul li').map(function (li) { var a = li.querySelector('a'); return item(li.textContent.trim(), li, [li, a]); });
  } else if (task === 'login-user') {
    g.username = [item('#username', document.getElementById('username'))];
    g.password = [item('#password', document.getElementById('password'))];
    g.login = [item('#subbtn', document.getElementById('subbtn'))];
  } else if (task === 'use-autocomplete') {
    g.textbox = [item('#tags', document.getElementById('tags'))];
    g.submit = [item('#subbtn', document.getElementById('subbtn'))];
  } else if (task === 'navigate-tree') {
    var lis = all('#tree li');
    var nameOf = function (li) { var s = li.querySelector(':scope > span'); return s ? s.textContent : ''; };
    var clickOf = function (li) { return [li].concat(all(':scope > span', li)); };
    g.items = lis.map(function (li) { return item(nameOf(li), li.querySelector(':scope > span') || li, clickOf(li)); });
    g.target = lis.filter(function (li) { return nameOf(li) === quoted[0]; }).map(function (li) { return item(nameOf(li), li.querySelector(':scope > span') || li, clickOf(li)); });
  } else if (task === 'email-inbox') {
    var rows = all('#main .email-thread');
    var sender = (instruction.match(/email by (.+?) and /) || [])[1];
    var senderOf = function (row) { var s = row.querySelector('.email-sender'); return s ? s.textContent : ''; };
    // A click anywhere in a row but its action icons opens the email (the handler is the row's).
    g.rows = rows.map(function (row) { return item(senderOf(row), row, withInside(row, '.email-actions')); });
    g.target = rows.filter(function (row) { return senderOf(row) === sender; }).map(function (row) { return item(senderOf(row), row, withInside(row, '.email-actions')); });
    var icon = /trash icon/.test(instruction) ? 'trash' : /star icon/.test(instruction) ? 'star' : null;
    if (icon) g.targetIcon = rows.filter(function (row) { return senderOf(row) === sender; }).map(function (row) { var s = row.querySelector('.email-actions .' + icon); return item(icon + ' of ' + sender, s); });
  } else if (task === 'tic-tac-toe') {
    g.emptyCells = all('.ttt-row span').filter(function (s) { return !/mark-/.test(s.className); }).map(function (s) { return item(s.id, s); });
  } else if (task === 'click-widget') {
    var widgets = all('#area .widget');
    var typeOf = function (w) { var c = w.querySelector('input, textarea, button'); return c ? c.getAttribute('data-type') : ''; };
    g.widgets = widgets.map(function (w) { return item(typeOf(w), w, withInside(w)); });
    g.target = widgets.filter(function (w) { return typeOf(w) === quoted[0]; }).map(function (w) { return item(typeOf(w), w, withInside(w)); });
  }
  return g;
})`;

/** Per task: the groups whose every visible item must be listed for the task's targets to count as listed. */
const REQUIRED: Record<string, string[]> = {
  'click-link': ['target'],
  'login-user': ['username', 'password', 'login'],
  'use-autocomplete': ['textbox', 'submit'],
  'navigate-tree': ['items'],
  'email-inbox': ['target', 'rows', 'targetIcon'],
  'tic-tac-toe': ['emptyCells'],
  // The target link is mostly in a tab not shown at the start: the shown tab's links stand for it.
  'click-tab-2': ['tabs', 'links'],
  'click-widget': ['target'],
};

/** Per task and group: the name the listed element must have as well (login-user's two fields are told apart by name only). */
const REQUIRED_NAMES: Record<string, Record<string, RegExp>> = {
  'login-user': { username: /user/i, password: /pass/i, login: /log ?in/i },
};

interface GroupCount {
  total: number;
  visible: number;
  /** Visible items with a non-text element of their own in the list. */
  visibleListed: number;
  listed: number;
  /** Visible listed items whose element's name is the one REQUIRED_NAMES asks for (only where it asks). */
  visibleListedNamed?: number;
  /** How the list shows the first visible items: role "name" [id], or null when not listed. */
  shownAs: (string | null)[];
}

interface SeedRow {
  seed: number;
  instruction: string;
  elements: number;
  /** Elements whose role is not 'text'. */
  interactive: number;
  visibleElements: number;
  visibleInteractive: number;
  /** Non-text elements without a name (an icon, a tree's expander, an empty cell): listed, but told apart only by place. */
  namelessInteractive: number;
  roles: Record<string, number>;
  /** Characters of the page text as the prompt renders it (renderObservationText). */
  textChars: number;
  targets: Record<string, GroupCount>;
  /** Every visible item of the task's required groups is listed (null: no such item on the page). */
  targetsListed: boolean | null;
  text?: string;
  error?: string;
}

async function measure(env: BrowserEnv, server: TaskServer, family: TaskFamily, task: string, seed: number, withText: boolean, legacySeeds: boolean): Promise<SeedRow> {
  const instance = server.createInstance(family.name, seed);
  const { spec, ctx } = instance;
  // --legacy-page-seeds: the loader of commit 1203d92 on seeds the page with BrowserGym's draw for
  // the seed (state.pageSeed, read when the page is served); the loader before it called
  // Math.seedrandom(String(seed)). Setting pageSeed to that string draws the same problem as the
  // older loader did, so both commits are measured on the same pages. No effect on an older loader.
  const state = ctx.state as { pageSeed?: unknown; error?: string };
  if (legacySeeds && 'pageSeed' in state) state.pageSeed = String(seed);
  try {
    let obs: Observation = await env.reset({ instruction: spec.instruction, startUrl: spec.startUrl, allowedOrigins: spec.allowedOrigins });
    const instruction = family.pageInstruction?.(ctx) ?? spec.instruction;
    obs = { ...obs, instruction };
    const groups = await inPage(env, task, instruction);
    const nonText = obs.elements.filter((e) => e.role !== 'text');
    const byId = new Map(nonText.map((e) => [e.id, e]));
    const targets: Record<string, GroupCount> = {};
    for (const [name, items] of Object.entries(groups)) {
      const hit = (it: TargetItem) => it.ids.map((id) => byId.get(id)).find((e) => e !== undefined);
      const visible = items.filter((it) => it.visible);
      const wanted = REQUIRED_NAMES[task]?.[name];
      targets[name] = {
        total: items.length,
        visible: visible.length,
        visibleListed: visible.filter((it) => hit(it)).length,
        listed: items.filter((it) => hit(it)).length,
        ...(wanted ? { visibleListedNamed: visible.filter((it) => wanted.test(hit(it)?.name ?? '')).length } : {}),
        shownAs: visible.slice(0, 4).map((it) => {
          const e = hit(it);
          return e ? `${e.role} ${JSON.stringify(e.name.slice(0, 40))} [${e.id}]` : null;
        }),
      };
    }
    const required = (REQUIRED[task] ?? []).map((g) => targets[g]).filter((g) => g && g.visible > 0);
    const roles: Record<string, number> = {};
    for (const e of obs.elements) roles[e.role] = (roles[e.role] ?? 0) + 1;
    const text = renderObservationText(obs);
    return {
      seed,
      instruction,
      elements: obs.elements.length,
      interactive: nonText.length,
      visibleElements: obs.elements.filter((e) => e.visible).length,
      visibleInteractive: nonText.filter((e) => e.visible).length,
      namelessInteractive: nonText.filter((e) => !e.name.trim()).length,
      roles,
      textChars: text.length,
      targets,
      targetsListed: required.length ? required.every((g) => g.visibleListed === g.visible && (g.visibleListedNamed ?? g.visible) === g.visible) : null,
      ...(withText ? { text } : {}),
      ...(state.error ? { error: state.error } : {}),
    };
  } finally {
    server.releaseInstance(ctx.id);
  }
}

async function inPage(env: BrowserEnv, task: string, instruction: string): Promise<TargetGroups> {
  const expression = `${TARGETS_JS}(${JSON.stringify(task)}, ${JSON.stringify(instruction)})`;
  const r = await env.session.send('Runtime.evaluate', { expression, returnByValue: true });
  if (r.exceptionDetails) throw new Error(`target script: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  return r.result.value ?? {};
}

const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null);

async function main(): Promise<void> {
  const dir = arg('--miniwob');
  if (!dir) throw new Error('usage: miniwob-element-counts.ts --miniwob DIR [--tasks a,b] [--seeds 0,1,2,3,4] [--keep-display] [--legacy-page-seeds] [--text]');
  const tasks = (arg('--tasks') ?? DEFAULT_TASKS.join(',')).split(',').filter(Boolean);
  const seeds = (arg('--seeds') ?? '0,1,2,3,4').split(',').map(Number);
  const keepDisplay = process.argv.includes('--keep-display');
  const withText = process.argv.includes('--text');
  const legacySeeds = process.argv.includes('--legacy-page-seeds');
  // keepHumanDisplay is unknown to the older loader (it always keeps the display) and ignored there.
  const families = new Map(miniwobFamilies(dir, { keepHumanDisplay: keepDisplay } as Parameters<typeof miniwobFamilies>[1]).map((f) => [f.name, f as TaskFamily]));
  const server = await new TaskServer(families).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host);
  const out: Record<string, unknown> = {
    checkoutDir: dir,
    keepDisplay,
    legacyPageSeeds: legacySeeds,
    // How this commit's loader seeds the page: BrowserGym's draw (state.pageSeed) or Math.seedrandom(String(seed)).
    loaderPageSeed: 'pageSeed' in (families.values().next().value!.generate(0).state as object) ? (legacySeeds ? 'String(seed) (--legacy-page-seeds)' : 'browsergymPageSeed(seed)') : 'String(seed) (the loader of its time)',
    textLayout: (env.options as { textLayout?: string }).textLayout ?? '(no option: the layout of its time)',
    seeds,
    tasks: {} as Record<string, unknown>,
  };
  try {
    for (const task of tasks) {
      const family = families.get(`miniwob.${task}`);
      if (!family) throw new Error(`no MiniWoB++ task ${task} in ${dir}`);
      const rows: SeedRow[] = [];
      for (const seed of seeds) {
        try {
          rows.push(await measure(env, server, family, task, seed, withText && seed === seeds[0], legacySeeds));
        } catch (err) {
          rows.push({ seed, error: String((err as Error).stack ?? err) } as SeedRow);
        }
        const r = rows[rows.length - 1];
        process.stderr.write(`${task} seed ${seed}: ${r.elements} elements, ${r.interactive} non-text, targets listed ${r.targetsListed}${r.error ? ` ERROR ${r.error.split('\n')[0]}` : ''}\n`);
      }
      const ok = rows.filter((r) => r.elements !== undefined);
      (out.tasks as Record<string, unknown>)[task] = {
        mean: {
          elements: mean(ok.map((r) => r.elements)),
          interactive: mean(ok.map((r) => r.interactive)),
          visibleElements: mean(ok.map((r) => r.visibleElements)),
          visibleInteractive: mean(ok.map((r) => r.visibleInteractive)),
          namelessInteractive: mean(ok.map((r) => r.namelessInteractive)),
          textChars: mean(ok.map((r) => r.textChars)),
        },
        targetsListedSeeds: `${ok.filter((r) => r.targetsListed === true).length}/${rows.length}`,
        rows,
      };
    }
  } finally {
    await env.close();
    await host.close();
    await server.stop();
  }
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err) + '\n');
  process.exit(1);
});
