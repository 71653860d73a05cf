/** Key names as Playwright and BrowserGym write them ("Enter", "Control+a") to CDP key events. */
import type { Protocol } from 'devtools-protocol';

interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
}

const NAMED: Record<string, KeyDef> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
};
const ALIASES: Record<string, string> = { Esc: 'Escape', Return: 'Enter', ' ': 'Space', Up: 'ArrowUp', Down: 'ArrowDown', Left: 'ArrowLeft', Right: 'ArrowRight' };

const MODIFIERS: Record<string, { bit: number; def: KeyDef }> = {
  Alt: { bit: 1, def: { key: 'Alt', code: 'AltLeft', keyCode: 18 } },
  Control: { bit: 2, def: { key: 'Control', code: 'ControlLeft', keyCode: 17 } },
  Meta: { bit: 4, def: { key: 'Meta', code: 'MetaLeft', keyCode: 91 } },
  Shift: { bit: 8, def: { key: 'Shift', code: 'ShiftLeft', keyCode: 16 } },
};
const MODIFIER_ALIASES: Record<string, string> = { Ctrl: 'Control', Cmd: 'Meta', Command: 'Meta', Option: 'Alt', ControlOrMeta: process.platform === 'darwin' ? 'Meta' : 'Control' };

export interface KeyChord {
  modifiers: number;
  modifierDefs: KeyDef[];
  key: KeyDef;
}

/** Parse "Enter", "a", "Shift+Tab", "Control+a". Throws with the offending part named. */
export function parseKeyChord(chord: string): KeyChord {
  if (!chord) throw new Error('empty key');
  // A lone "+" is the plus key, not a separator.
  const parts = chord === '+' ? ['+'] : chord.split('+').map((p, i, all) => (p === '' && i === all.length - 1 ? '+' : p)).filter((p) => p !== '');
  const keyName = parts.pop()!;
  let modifiers = 0;
  const modifierDefs: KeyDef[] = [];
  for (const raw of parts) {
    const m = MODIFIERS[MODIFIER_ALIASES[raw] ?? raw];
    if (!m) throw new Error(`unknown modifier '${raw}' in '${chord}' (use Alt, Control, Meta or Shift)`);
    modifiers |= m.bit;
    modifierDefs.push(m.def);
  }
  const named = NAMED[ALIASES[keyName] ?? keyName];
  if (named) return { modifiers, modifierDefs, key: named };
  if ([...keyName].length === 1) {
    const ch = keyName;
    const upper = ch.toUpperCase();
    const isLetter = /[a-z]/i.test(ch);
    const isDigit = /[0-9]/.test(ch);
    const code = isLetter ? `Key${upper}` : isDigit ? `Digit${ch}` : '';
    const keyCode = isLetter || isDigit ? upper.charCodeAt(0) : 0;
    return { modifiers, modifierDefs, key: { key: ch, code, keyCode, text: ch } };
  }
  if (/^F([1-9]|1[0-2])$/.test(keyName)) {
    return { modifiers, modifierDefs, key: { key: keyName, code: keyName, keyCode: 111 + Number(keyName.slice(1)) } };
  }
  throw new Error(`unknown key '${keyName}' in '${chord}'`);
}

/** The CDP Input.dispatchKeyEvent calls that press and release a chord. */
export function keyEvents(chord: KeyChord): Protocol.Input.DispatchKeyEventRequest[] {
  const events: Protocol.Input.DispatchKeyEventRequest[] = [];
  let held = 0;
  for (const m of chord.modifierDefs) {
    held |= MODIFIERS[m.key].bit;
    events.push({ type: 'rawKeyDown', modifiers: held, key: m.key, code: m.code, windowsVirtualKeyCode: m.keyCode });
  }
  const k = chord.key;
  // With Control/Alt/Meta held, a printable key is a shortcut, not text.
  const text = chord.modifiers & ~8 ? undefined : chord.modifiers & 8 && k.text && k.text.length === 1 ? k.text.toUpperCase() : k.text;
  events.push({
    type: text ? 'keyDown' : 'rawKeyDown',
    modifiers: chord.modifiers,
    key: k.key,
    code: k.code,
    windowsVirtualKeyCode: k.keyCode,
    ...(text ? { text, unmodifiedText: k.text } : {}),
    // Editing shortcuts Chromium does not derive from raw key events in headless mode.
    ...(chord.modifiers === 2 && k.key.toLowerCase() === 'a' ? { commands: ['selectAll'] } : {}),
  });
  events.push({ type: 'keyUp', modifiers: chord.modifiers, key: k.key, code: k.code, windowsVirtualKeyCode: k.keyCode });
  for (const m of [...chord.modifierDefs].reverse()) {
    held &= ~MODIFIERS[m.key].bit;
    events.push({ type: 'keyUp', modifiers: held, key: m.key, code: m.code, windowsVirtualKeyCode: m.keyCode });
  }
  return events;
}
