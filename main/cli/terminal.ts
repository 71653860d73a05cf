/**
 * Text from a model (or a page, or a server) printed to a terminal: control characters are
 * escaped, so a NUL, an ANSI escape sequence or a carriage return in an answer cannot hide text,
 * move the cursor or restyle the terminal. Newlines and tabs may stay where the output is
 * multi-line; in one-line output they are escaped too.
 */
// C0 controls, DEL and C1 controls (an 8-bit CSI is U+009B), plus the bidi overrides that reorder what is shown.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

export function forTerminal(text: string, opts: { multiline?: boolean } = {}): string {
  return text.replace(CONTROL, (c) => {
    if (opts.multiline && (c === '\n' || c === '\t')) return c;
    return NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16)}}`;
  });
}
