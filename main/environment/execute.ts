/**
 * Executes parsed actions with real input events (CDP Input domain), the way a person would act:
 * scroll the target into view, check that it can receive the event, then move, press, type.
 * Coordinate actions skip the target: they press where they are told, once the point is checked
 * to lie in the viewport.
 */
import type { CdpSession } from './cdp.ts';
import { actionPoints, type Action, type MouseButton } from './actions.ts';
import type { StepError } from './types.ts';
import { callExpression, findLabElement, functionDeclaration, inspectTarget, isHovered, selectAllText, selectOptions, setValueWithEvents } from './page-scripts.ts';
import { keyEvents, parseKeyChord } from './keys.ts';
import type { RemoteFrames } from './remote-frames.ts';

/** An action that could not be carried out; becomes the step's named error. */
export class ActionError extends Error {
  constructor(
    readonly code: StepError['code'],
    message: string,
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

export interface ExecuteContext {
  session: CdpSession;
  viewport: { width: number; height: number };
  /** Origins goto() may open; empty means any http(s) origin. */
  allowedOrigins: string[];
  /** The mouse buttons held down, kept by the environment across the steps of an episode. */
  mouse: MouseState;
  /** The page's cross-origin frames: an id with a frame prefix (`a12`) is looked for in its frame. */
  frames?: RemoteFrames;
}

/**
 * Buttons held between steps: mouse_down in one step, mouse_move and mouse_up in later ones. Moves
 * carry them (CDP's `buttons`), so a page sees a drag, as it would from a person's hand.
 */
export interface MouseState {
  /** Bit mask of held buttons: left 1, right 2, middle 4. */
  buttons: number;
}

export interface ExecuteOutcome {
  /** Set by send_msg_to_user / report_infeasible. */
  message?: string;
  infeasible?: string;
}

const OBJECT_GROUP = 'lab-action';
/** Inputs whose value Chromium does not take from typed text. */
const SET_VALUE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

/** Intermediate moves of mouse_drag_and_drop, so a page that tracks the pointer sees it travel. */
const DRAG_STEPS = 5;

export async function executeAction(ctx: ExecuteContext, action: Action): Promise<ExecuteOutcome> {
  const { session } = ctx;
  checkInViewport(action, ctx.viewport);
  try {
    switch (action.type) {
      case 'click':
      case 'dblclick':
      case 'hover': {
        const target = await resolveTarget(ctx, action.id, action.type !== 'hover');
        await movePointerOnto(session, target);
        if (action.type === 'hover') return {};
        const button = action.type === 'click' ? action.button : 'left';
        await mouseClick(session, target.x, target.y, button, 1);
        if (action.type === 'dblclick') await mouseClick(session, target.x, target.y, 'left', 2);
        return {};
      }
      case 'check':
      case 'uncheck': {
        const target = await resolveTarget(ctx, action.id, true);
        if (target.info.checked === null) throw new ActionError('element_not_interactable', `element '${action.id}' is a <${target.info.tag}>, not a checkbox or radio`);
        if (target.info.checked !== (action.type === 'check')) {
          await movePointerOnto(session, target);
          await mouseClick(session, target.x, target.y, 'left', 1);
        }
        return {};
      }
      case 'focus': {
        const target = await resolveTarget(ctx, action.id, false);
        await target.session.send('DOM.focus', { objectId: target.objectId });
        return {};
      }
      case 'fill':
      case 'clear': {
        const text = action.type === 'fill' ? action.text : '';
        const target = await resolveTarget(ctx, action.id, true);
        const { info } = target;
        if (info.tag === 'select') throw new ActionError('element_not_interactable', `element '${action.id}' is a <select>: use select_option('${action.id}', 'Label')`);
        if (!info.editable && !SET_VALUE_TYPES.has(info.type)) {
          throw new ActionError('element_not_interactable', `element '${action.id}' (<${info.tag}${info.type ? ` type=${info.type}` : ''}>) does not take text`);
        }
        await target.session.send('DOM.focus', { objectId: target.objectId });
        if (SET_VALUE_TYPES.has(info.type)) {
          await callOn(target.session, target.objectId, setValueWithEvents, [text]);
          return {};
        }
        await callOn(target.session, target.objectId, selectAllText, []);
        if (text === '') await pressChord(session, 'Backspace');
        else await session.send('Input.insertText', { text });
        return {};
      }
      case 'select_option': {
        const target = await resolveTarget(ctx, action.id, true);
        await target.session.send('DOM.focus', { objectId: target.objectId });
        const result = await callOn<{ ok: boolean; message?: string }>(target.session, target.objectId, selectOptions, [action.options]);
        if (!result.ok) throw new ActionError('invalid_argument', `select_option on '${action.id}': ${result.message}`);
        return {};
      }
      case 'press': {
        const target = await resolveTarget(ctx, action.id, false);
        await target.session.send('DOM.focus', { objectId: target.objectId });
        await pressChord(session, action.key);
        return {};
      }
      case 'keyboard_press':
        await pressChord(session, action.key);
        return {};
      case 'scroll':
        await session.send('Input.dispatchMouseEvent', {
          type: 'mouseWheel',
          x: Math.floor(ctx.viewport.width / 2),
          y: Math.floor(ctx.viewport.height / 2),
          deltaX: action.dx,
          deltaY: action.dy,
        });
        // The wheel is acknowledged before the compositor applies it: the viewport moves at the
        // next frame, which a settle with nothing else pending can beat on a loaded machine. Wait
        // for that frame (bounded: a page may replace requestAnimationFrame or never paint).
        await nextAnimationFrame(session, 250);
        return {};
      case 'go_back':
      case 'go_forward': {
        const history = await session.send('Page.getNavigationHistory');
        const index = history.currentIndex + (action.type === 'go_back' ? -1 : 1);
        const entry = history.entries[index];
        if (!entry) throw new ActionError('action_failed', action.type === 'go_back' ? 'there is no previous page' : 'there is no next page');
        await session.send('Page.navigateToHistoryEntry', { entryId: entry.id });
        return {};
      }
      case 'goto': {
        const url = checkGotoUrl(action.url, ctx.allowedOrigins);
        const result = await session.send('Page.navigate', { url });
        if (result.errorText) throw new ActionError('navigation_failed', `${result.errorText} loading ${url}`);
        return {};
      }
      case 'noop':
        await new Promise((r) => setTimeout(r, Math.min(Math.max(action.ms, 0), 5000)));
        return {};
      case 'send_msg_to_user':
        return { message: action.text };
      case 'report_infeasible':
        return { infeasible: action.reason };
      case 'mouse_move':
        await mouseMove(session, action.x, action.y, ctx.mouse);
        return {};
      case 'mouse_click':
      case 'mouse_dblclick':
        await mouseMove(session, action.x, action.y, ctx.mouse);
        await mouseClick(session, action.x, action.y, action.button, 1);
        if (action.type === 'mouse_dblclick') await mouseClick(session, action.x, action.y, action.button, 2);
        return {};
      case 'mouse_down':
        await mouseMove(session, action.x, action.y, ctx.mouse);
        await mouseButton(session, 'mousePressed', action.x, action.y, action.button, ctx.mouse);
        return {};
      case 'mouse_up':
        await mouseMove(session, action.x, action.y, ctx.mouse);
        await mouseButton(session, 'mouseReleased', action.x, action.y, action.button, ctx.mouse);
        return {};
      case 'mouse_drag_and_drop': {
        const { fromX, fromY, toX, toY } = action;
        await mouseMove(session, fromX, fromY, ctx.mouse);
        await mouseButton(session, 'mousePressed', fromX, fromY, 'left', ctx.mouse);
        for (let i = 1; i <= DRAG_STEPS; i++) {
          await mouseMove(session, fromX + ((toX - fromX) * i) / DRAG_STEPS, fromY + ((toY - fromY) * i) / DRAG_STEPS, ctx.mouse);
        }
        await mouseButton(session, 'mouseReleased', toX, toY, 'left', ctx.mouse);
        return {};
      }
      case 'keyboard_type':
        await typeText(session, action.text);
        return {};
    }
  } finally {
    releaseObjects(ctx);
  }
}

/** Let go of the remote objects an action held, in the page and in its cross-origin frames. */
function releaseObjects(ctx: ExecuteContext): void {
  for (const s of [ctx.session, ...(ctx.frames?.list().map((f) => f.session) ?? [])]) {
    s.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => {});
  }
}

/** A coordinate action's points must lie in the viewport: a press outside it lands on nothing a person could reach. */
function checkInViewport(action: Action, viewport: { width: number; height: number }): void {
  for (const { x, y } of actionPoints(action)) {
    if (!(Number.isFinite(x) && Number.isFinite(y) && x >= 0 && y >= 0 && x < viewport.width && y < viewport.height)) {
      throw new ActionError(
        'invalid_argument',
        `${action.type}: (${x}, ${y}) is outside the viewport (${viewport.width}x${viewport.height}): x must be in [0, ${viewport.width}) and y in [0, ${viewport.height}), CSS pixels from its top-left corner`,
      );
    }
  }
}

export function checkGotoUrl(raw: string, allowedOrigins: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ActionError('invalid_argument', `goto needs an absolute http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ActionError('navigation_blocked', `goto may only open http(s) URLs, not ${url.protocol}`);
  }
  if (allowedOrigins.length && !allowedOrigins.includes(url.origin)) {
    throw new ActionError('navigation_blocked', `${url.origin} is outside this task's sites (${allowedOrigins.join(', ')})`);
  }
  return url.href;
}

interface ResolvedTarget {
  /** The session of the document the element lives in: the page's, or a cross-origin frame's. */
  session: CdpSession;
  /** The element lives in a cross-origin frame (its own process). */
  inRemoteFrame: boolean;
  objectId: string;
  x: number;
  y: number;
  info: ReturnType<typeof inspectTarget>;
}

async function resolveTarget(ctx: ExecuteContext, id: string, needsPointer: boolean): Promise<ResolvedTarget> {
  // Input events go to the page (the browser routes them into frames); the element is read in its own document.
  const frame = ctx.frames?.frameOfId(id);
  const session = frame?.session ?? ctx.session;
  const found = await session.send('Runtime.evaluate', {
    expression: callExpression(findLabElement, id),
    objectGroup: OBJECT_GROUP,
  });
  const objectId = found.result.objectId;
  if (!objectId || found.result.subtype === 'null') throw new ActionError('unknown_element', `no element with id '${id}' on the page`);
  await session.send('DOM.scrollIntoViewIfNeeded', { objectId }).catch(() => {
    // Elements without a layout box cannot be scrolled to; inspectTarget reports why below.
  });
  const info = await callOn<ReturnType<typeof inspectTarget>>(session, objectId, inspectTarget, []);
  if (frame) {
    // The point is in the frame's viewport: move it into the page's.
    const at = await ctx.frames!.offset(frame);
    info.x += at.x;
    info.y += at.y;
  }
  if (info.disabled && needsPointer) throw new ActionError('element_not_interactable', `element '${id}' is disabled`);
  if (needsPointer) {
    if (info.width <= 0 || info.height <= 0) throw new ActionError('element_not_interactable', `element '${id}' is not visible (it has no size)`);
    if (info.x < 0 || info.y < 0 || info.x > ctx.viewport.width || info.y > ctx.viewport.height) {
      throw new ActionError('element_not_interactable', `element '${id}' is outside the viewport and could not be scrolled into view`);
    }
    if (info.coveredBy) throw new ActionError('element_not_interactable', `element '${id}' is covered by ${info.coveredBy}`);
  }
  return { session, inRemoteFrame: frame !== undefined, objectId, x: info.x, y: info.y, info };
}

async function callOn<T>(session: CdpSession, objectId: string, fn: (...args: any[]) => unknown, args: unknown[]): Promise<T> {
  const r = await session.send(
    'Runtime.callFunctionOn',
    {
      objectId,
      functionDeclaration: functionDeclaration(fn),
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true,
    },
  );
  if (r.exceptionDetails) {
    throw new ActionError('action_failed', r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
  }
  return r.result.value;
}

/** How long a pointer may wait for a newly loaded cross-origin frame to take input (see below). */
const FRAME_INPUT_WAIT_MS = 1000;

/**
 * Move the pointer onto the target. The browser sends input into a cross-origin frame by its own
 * hit test, whose data for the frame arrives with the frame's first painted frames: a click sent
 * before then lands on the <iframe> element in the parent and is lost (seen about 1 click in 100
 * within 200 ms of a page's load). So for such a frame, move until the element's document reports
 * the pointer over it, one animation frame apart, bounded; the press that follows then reaches it.
 */
async function movePointerOnto(page: CdpSession, target: ResolvedTarget): Promise<void> {
  await mouseMove(page, target.x, target.y);
  if (!target.inRemoteFrame) return;
  const deadline = Date.now() + FRAME_INPUT_WAIT_MS;
  while (!(await callOn<boolean>(target.session, target.objectId, isHovered, [])) && Date.now() < deadline) {
    await nextAnimationFrame(target.session, 100);
    await mouseMove(page, target.x, target.y);
  }
}

/**
 * Wait for the document's next animation frame, at most boundMs: a page may replace
 * requestAnimationFrame or never paint. The bound is kept here, not by a page timer, which the
 * settle wait would count as the action's own short timer. A document that goes away meanwhile (a
 * navigation) has nothing to wait for.
 */
async function nextAnimationFrame(session: CdpSession, boundMs: number): Promise<void> {
  await Promise.race([
    session.send('Runtime.evaluate', { expression: 'new Promise((done) => requestAnimationFrame(() => done(0)))', awaitPromise: true }).catch(() => {}),
    new Promise((r) => setTimeout(r, boundMs)),
  ]);
}

const BUTTON_MASK = { left: 1, right: 2, middle: 4 } as const;

/** A move with the buttons still held (a drag), when a mouse_down left one down. */
async function mouseMove(session: CdpSession, x: number, y: number, held?: MouseState): Promise<void> {
  const buttons = held?.buttons ?? 0;
  const button = (Object.keys(BUTTON_MASK) as MouseButton[]).find((b) => buttons & BUTTON_MASK[b]) ?? 'none';
  await session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button, buttons });
}

async function mouseClick(session: CdpSession, x: number, y: number, button: MouseButton, clickCount: number): Promise<void> {
  await session.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button, buttons: BUTTON_MASK[button], clickCount });
  await session.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button, buttons: 0, clickCount });
}

/** Press or release one button, keeping the held set for later moves. */
async function mouseButton(session: CdpSession, type: 'mousePressed' | 'mouseReleased', x: number, y: number, button: MouseButton, held: MouseState): Promise<void> {
  held.buttons = type === 'mousePressed' ? held.buttons | BUTTON_MASK[button] : held.buttons & ~BUTTON_MASK[button];
  await session.send('Input.dispatchMouseEvent', { type, x, y, button, buttons: held.buttons, clickCount: 1 });
}

/**
 * Type text into whatever has focus, key by key as a person would (keydown, input, keyup for each
 * character; a newline is Enter, a tab Tab). Characters beyond ASCII have no key on the keyboard
 * the environment emulates: they are inserted as text, as an input method would.
 */
async function typeText(session: CdpSession, text: string): Promise<void> {
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    if (ch === '\n' || ch === '\t') await pressChord(session, ch === '\n' ? 'Enter' : 'Tab');
    else if (/^[\x20-\x7e]$/.test(ch)) await pressChord(session, ch);
    else await session.send('Input.insertText', { text: ch });
  }
}

async function pressChord(session: CdpSession, chord: string): Promise<void> {
  let parsed;
  try {
    parsed = parseKeyChord(chord);
  } catch (err) {
    throw new ActionError('invalid_argument', (err as Error).message);
  }
  for (const event of keyEvents(parsed)) await session.send('Input.dispatchKeyEvent', event);
}
