"""Agent Lab's Salvage-DS reward for verl: the action-semantic polarized reward of `lab train salvage`.

`lab export --format verl` writes this file beside the Parquet files. Point verl at it with

    custom_reward_function.path=<export>/reward_agent_lab.py
    custom_reward_function.name=compute_score

and verl calls compute_score(data_source, solution_str, ground_truth, extra_info) for every sampled
response. Only the Python standard library is used, so it loads in any verl environment.

The rules are those of main/policy/salvage/reward.ts and main/policy/mining.ts in the workbench, and
test/policy/reward-parity.test.ts runs both on the same cases, so a rule changed on one side only
fails there. In short:
  * the action is the last line of the response that parses as an action (a thought may come
    before it), as the compact policy reads its own output (main/policy/prompt.ts);
  * its meaning is its type, the element it acts on (compared by role, normalised name and rank
    among elements with that role and name, so another id naming the same element is equal) and
    its normalised text;
  * reward `correct` (1) when the meaning equals the reference action's on the same page, `wrong`
    (-1) when it does not, `invalid` (-2) when nothing parses or the action names an element that
    is not on the page (the environment would refuse both).

`reward_model.ground_truth` of each row is a JSON string holding the reference action and the
page's elements reduced to what the meaning reads:
    {"v": 1, "action": "click('12')", "elements": [{"id": "12", "role": "link", "name": "Shoes"}, ...]}

The reward settings can be changed from verl's command line (keyword arguments of compute_score):
    +custom_reward_function.reward_kwargs.invalid=-3
    +custom_reward_function.reward_kwargs.kind=graded

Run as a script, it scores JSON Lines from stdin, {"solution_str", "ground_truth", "settings"?} per
line, and writes {"reward", "correct", "invalid"} per line: a way to check completions by hand.
"""
from __future__ import annotations

import json
import math
import re
import sys
import unicodedata
from decimal import Decimal

GROUND_TRUTH_VERSION = 1

# The workbench's defaultRewardSettings (main/policy/salvage/reward.ts).
DEFAULT_SETTINGS = {
    "kind": "polarized",
    "correct": 1.0,
    "wrong": -1.0,
    "invalid": -2.0,
    "type_weight": 0.4,
    "target_weight": 0.4,
    "text_weight": 0.2,
}


# --- JavaScript string semantics ---------------------------------------------------------------
# The TypeScript rules use JavaScript's \s and String.prototype.trim, whose whitespace set differs
# from Python's (Python counts \x1c-\x1f and \x85, JavaScript counts \ufeff), and JavaScript's
# Number-to-string conversion. Both are spelled out here so the two sides agree on every string.

_JS_SPACE_CHARS = "\t\n\v\f\r \u00a0\u1680" + "".join(chr(c) for c in range(0x2000, 0x200B)) + "\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_SPACE = frozenset(_JS_SPACE_CHARS)
_JS_SPACE_RUN = re.compile("[" + re.escape(_JS_SPACE_CHARS) + "]+")


def _js_trim(s: str) -> str:
    return s.strip(_JS_SPACE_CHARS)


def _js_number(x: float) -> str:
    """String(x) in JavaScript: shortest round-trip digits, laid out by ECMAScript's Number::toString."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"  # -0 too
    if x < 0:
        return "-" + _js_number(-x)
    # repr gives the shortest digits that read back as x, as JavaScript does.
    _, digit_tuple, exponent = Decimal(repr(x)).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    exponent += len(digit_tuple) - len(digits)
    k = len(digits)
    n = exponent + k  # x = 0.digits * 10^n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


# --- Action grammar (main/environment/actions.ts) ---------------------------------------------


class ActionParseError(ValueError):
    pass


# Argument kinds per action, and how many trailing ones may be left out.
_SIGNATURES = {
    "click": (("id", "string"), 1),
    "dblclick": (("id",), 0),
    "hover": (("id",), 0),
    "focus": (("id",), 0),
    "fill": (("id", "string"), 0),
    "clear": (("id",), 0),
    "select_option": (("id", "strings"), 0),
    "check": (("id",), 0),
    "uncheck": (("id",), 0),
    "press": (("id", "string"), 0),
    "keyboard_press": (("string",), 0),
    "scroll": (("number", "number"), 0),
    "go_back": ((), 0),
    "go_forward": ((), 0),
    "goto": (("string",), 0),
    "noop": (("number",), 1),
    "send_msg_to_user": (("string",), 0),
    "report_infeasible": (("string",), 0),
}

_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_NUMBER = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")
_DIGITS = re.compile(r"[0-9]+")


def _tokenize(src: str) -> list:
    """Tokens as (kind, value): name, string, number, punct."""
    tokens = []
    i = 0
    while i < len(src):
        c = src[i]
        if c in _JS_SPACE:
            i += 1
        elif c in _NAME_START:
            start = i
            while i < len(src) and src[i] in _NAME_CHARS:
                i += 1
            tokens.append(("name", src[start:i]))
        elif c in "-+0123456789.":
            m = _NUMBER.match(src, i)
            if not m:
                raise ActionParseError(f"unexpected {c!r} at column {i + 1}")
            tokens.append(("number", float(m.group(0))))
            i = m.end()
        elif c in "\"'":
            start = i
            value = []
            i += 1
            while True:
                if i >= len(src):
                    raise ActionParseError(f"unterminated string starting at column {start + 1}")
                d = src[i]
                if d == c:
                    i += 1
                    break
                if d == "\\":
                    if i + 1 >= len(src):
                        raise ActionParseError(f"unterminated string starting at column {start + 1}")
                    e = src[i + 1]
                    value.append({"n": "\n", "t": "\t", "r": "\r"}.get(e, e))
                    i += 2
                else:
                    value.append(d)
                    i += 1
            tokens.append(("string", "".join(value)))
        elif c in "(),[]=":
            tokens.append(("punct", c))
            i += 1
        else:
            raise ActionParseError(f"unexpected {c!r} at column {i + 1}")
    return tokens


def _coerce(action: str, index: int, kind: str, v):
    where = f"{action} argument {index + 1}"
    if kind == "id":
        if isinstance(v, float) and math.isfinite(v) and v == math.floor(v) and v >= 0:
            return _js_number(v)
        if isinstance(v, str) and _DIGITS.fullmatch(v):
            return v
        raise ActionParseError(f"{where} must be an element id like '12'")
    if kind == "string":
        if isinstance(v, str):
            return v
        if isinstance(v, float):
            return _js_number(v)
        raise ActionParseError(f"{where} must be a string, got a list")
    if kind == "number":
        if isinstance(v, float) and math.isfinite(v):
            return v
        raise ActionParseError(f"{where} must be a number")
    # strings
    if isinstance(v, str):
        return [v]
    if isinstance(v, list) and v:
        return v
    raise ActionParseError(f"{where} must be a string or a non-empty list of strings")


def parse_action(text: str) -> dict:
    """One action string as a dict with its type and arguments; raises ActionParseError."""
    src = _js_trim(text)
    if not src:
        raise ActionParseError("empty action")
    tokens = _tokenize(src)
    pos = 0

    def at(p):
        return tokens[p] if p < len(tokens) else None

    def expect(p_text):
        nonlocal pos
        t = at(pos)
        if t is None or t != ("punct", p_text):
            raise ActionParseError(f"expected {p_text!r}")
        pos += 1

    head = at(pos)
    pos += 1
    if head is None or head[0] != "name":
        raise ActionParseError("expected an action name")
    if head[1] not in _SIGNATURES:
        raise ActionParseError(f"unknown action {head[1]!r}")
    kinds, optional = _SIGNATURES[head[1]]
    expect("(")
    values = []
    while at(pos) is not None and at(pos) != ("punct", ")"):
        if values:
            expect(",")
        # Keyword arguments (button='right') are tolerated: the keyword is dropped.
        if at(pos) is not None and at(pos)[0] == "name" and at(pos + 1) == ("punct", "="):
            pos += 2
        t = at(pos)
        if t == ("punct", "["):
            pos += 1
            items = []
            while at(pos) != ("punct", "]"):
                if items:
                    expect(",")
                item = at(pos)
                pos += 1
                if item is None or item[0] != "string":
                    raise ActionParseError("expected a string in the list")
                items.append(item[1])
            pos += 1
            values.append(items)
        elif t is not None and t[0] in ("string", "number"):
            values.append(t[1])
            pos += 1
        else:
            raise ActionParseError("expected an argument")
    expect(")")
    if pos != len(tokens):
        raise ActionParseError("unexpected input after the action")
    if not len(kinds) - optional <= len(values) <= len(kinds):
        raise ActionParseError(f"{head[1]} takes {len(kinds) - optional} to {len(kinds)} argument(s), got {len(values)}")
    args = [_coerce(head[1], i, kinds[i], v) for i, v in enumerate(values)]
    return _build(head[1], args)


def _build(kind: str, args: list) -> dict:
    a = {"type": kind}
    if kind == "click":
        button = args[1] if len(args) > 1 else "left"
        if button not in ("left", "right", "middle"):
            raise ActionParseError("click button must be left, right or middle")
        a.update(id=args[0], button=button)
    elif kind in ("dblclick", "hover", "focus", "clear", "check", "uncheck"):
        a["id"] = args[0]
    elif kind == "fill":
        a.update(id=args[0], text=args[1])
    elif kind == "select_option":
        a.update(id=args[0], options=args[1])
    elif kind == "press":
        a.update(id=args[0], key=args[1])
    elif kind == "keyboard_press":
        a["key"] = args[0]
    elif kind == "scroll":
        a.update(dx=args[0], dy=args[1])
    elif kind == "goto":
        a["url"] = args[0]
    elif kind == "noop":
        a["ms"] = args[0] if args else 1000.0
    elif kind == "send_msg_to_user":
        a["text"] = args[0]
    elif kind == "report_infeasible":
        a["reason"] = args[0]
    return a


def _quote(s: str) -> str:
    # formatAction's quoting: JSON.stringify's escapes, then single quotes.
    body = json.dumps(s, ensure_ascii=False)[1:-1].replace('\\"', '"').replace("'", "\\'")
    return f"'{body}'"


def format_action(a: dict) -> str:
    """The canonical string the workbench records for an action (formatAction)."""
    t = a["type"]
    if t == "click":
        return f"click({_quote(a['id'])})" if a["button"] == "left" else f"click({_quote(a['id'])}, {_quote(a['button'])})"
    if t == "fill":
        return f"fill({_quote(a['id'])}, {_quote(a['text'])})"
    if t == "select_option":
        opts = a["options"]
        inner = _quote(opts[0]) if len(opts) == 1 else "[" + ", ".join(_quote(o) for o in opts) + "]"
        return f"select_option({_quote(a['id'])}, {inner})"
    if t == "press":
        return f"press({_quote(a['id'])}, {_quote(a['key'])})"
    if t == "keyboard_press":
        return f"keyboard_press({_quote(a['key'])})"
    if t == "scroll":
        return f"scroll({_js_number(a['dx'])}, {_js_number(a['dy'])})"
    if t == "goto":
        return f"goto({_quote(a['url'])})"
    if t == "noop":
        return f"noop({_js_number(a['ms'])})"
    if t == "send_msg_to_user":
        return f"send_msg_to_user({_quote(a['text'])})"
    if t == "report_infeasible":
        return f"report_infeasible({_quote(a['reason'])})"
    if t in ("go_back", "go_forward"):
        return f"{t}()"
    return f"{t}({_quote(a['id'])})"


def parse_policy_output(text: str):
    """(canonical action, True) for the last line that parses as an action, else (None, False).

    The workbench scores the canonical form, read again; that round trip is not exact for control
    characters (formatAction writes \u0001, parseAction reads it back as u0001), so neither is it here.
    """
    for line in reversed([_js_trim(l) for l in text.split("\n")]):
        if not line:
            continue
        try:
            return format_action(parse_action(line)), True
        except ActionParseError:
            continue
    return None, False


# --- Meaning (main/policy/mining.ts) -----------------------------------------------------------

_EDGE_PUNCT = re.compile(r"^[\"'`(\[]+|[\"'`)\].,;:!?]+\Z")


def normalize_text(s: str) -> str:
    """normalizeText of main/tasks/families/common/normalize.ts."""
    s = unicodedata.normalize("NFKC", s).lower()
    s = re.sub("[\u2018\u2019]", "'", s)
    s = re.sub("[\u201c\u201d]", '"', s)
    s = _js_trim(_JS_SPACE_RUN.sub(" ", s))
    return _js_trim(_EDGE_PUNCT.sub("", s))


def _element_key(index: int, elements: list) -> str:
    """role|name|rank: rank among the elements with the same role and normalised name, in page order."""
    el = elements[index]
    name = normalize_text(el["name"])
    rank = sum(1 for e in elements[:index] if e["role"] == el["role"] and normalize_text(e["name"]) == name)
    return f"{el['role']}|{name}|{rank}"


def action_meaning(action: str, elements: list) -> tuple:
    """(type, target, text) of an action on a page; type 'invalid' when it does not parse."""
    try:
        a = parse_action(action)
    except ActionParseError:
        return ("invalid", None, None)
    target = None
    if "id" in a:
        index = next((i for i, e in enumerate(elements) if e["id"] == a["id"]), None)
        target = "missing" if index is None else _element_key(index, elements)
    t = a["type"]
    text = None
    if t == "fill" or t == "send_msg_to_user":
        text = a["text"]
    elif t == "select_option":
        text = "|".join(a["options"])
    elif t == "report_infeasible":
        text = a["reason"]
    elif t == "press" or t == "keyboard_press":
        text = a["key"]
    elif t == "goto":
        text = a["url"]
    elif t == "scroll":
        text = f"{_js_number(a['dx'])},{_js_number(a['dy'])}"
    return (t, target, None if text is None else normalize_text(text))


def _same_meaning(a: tuple, b: tuple) -> bool:
    return a[0] != "invalid" and a == b


# --- Reward (main/policy/salvage/reward.ts) ----------------------------------------------------


def parse_ground_truth(ground_truth) -> tuple:
    """(reference action, elements) from a row's ground truth, naming the field that is wrong."""
    try:
        gt = json.loads(ground_truth) if isinstance(ground_truth, str) else ground_truth
    except json.JSONDecodeError as err:
        raise ValueError(f"ground_truth: not JSON ({err}); rows of `lab export --format verl` hold a JSON object") from None
    if not isinstance(gt, dict):
        raise ValueError("ground_truth: expected a JSON object with v, action and elements")
    if gt.get("v") != GROUND_TRUTH_VERSION:
        raise ValueError(f"ground_truth: field v: expected {GROUND_TRUTH_VERSION}, got {gt.get('v')!r} (export and reward module from different workbench versions)")
    if not isinstance(gt.get("action"), str):
        raise ValueError("ground_truth: field action: expected a string")
    elements = gt.get("elements")
    if not isinstance(elements, list):
        raise ValueError("ground_truth: field elements: expected a list")
    for i, e in enumerate(elements):
        if not isinstance(e, dict):
            raise ValueError(f"ground_truth: field elements[{i}]: expected an object")
        for key in ("id", "role", "name"):
            if not isinstance(e.get(key), str):
                raise ValueError(f"ground_truth: field elements[{i}].{key}: expected a string")
    return gt["action"], elements


def _settings(overrides: dict) -> dict:
    s = dict(DEFAULT_SETTINGS)
    for key, value in overrides.items():
        if key not in DEFAULT_SETTINGS:
            continue
        s[key] = value if key == "kind" else float(value)
    if s["kind"] not in ("polarized", "graded"):
        raise ValueError(f"reward setting kind: expected polarized or graded, got {s['kind']!r}")
    if s["invalid"] > s["wrong"]:
        raise ValueError("reward setting invalid: must not exceed wrong (invalid actions are penalised more)")
    return s


def score_response(solution_str: str, ground_truth, **settings) -> dict:
    """reward, correct (same meaning as the reference) and invalid, as scoreAction returns them."""
    s = _settings(settings)
    action, elements = parse_ground_truth(ground_truth)
    reference = action_meaning(action, elements)
    sampled, valid = parse_policy_output(solution_str)
    mine = action_meaning(sampled, elements) if valid else ("invalid", None, None)
    if mine[0] == "invalid" or mine[1] == "missing":
        return {"reward": s["invalid"], "correct": False, "invalid": True}
    correct = _same_meaning(mine, reference)
    if s["kind"] == "polarized":
        return {"reward": s["correct"] if correct else s["wrong"], "correct": correct, "invalid": False}
    # Graded: target and text only count when the type matches.
    same_type = mine[0] == reference[0]
    credit = (s["type_weight"] if same_type else 0.0) + (s["target_weight"] if same_type and mine[1] == reference[1] else 0.0) + (
        s["text_weight"] if same_type and mine[2] == reference[2] else 0.0
    )
    return {"reward": s["wrong"] + (s["correct"] - s["wrong"]) * credit, "correct": correct, "invalid": False}


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> float:
    """verl's custom reward hook. Extra keyword arguments are reward settings (reward_kwargs in
    verl's config: kind, correct, wrong, invalid, type_weight, target_weight, text_weight); others
    that some verl reward managers add are ignored."""
    if not str(data_source).startswith("agent_lab/"):
        raise ValueError(f"data_source {data_source!r}: this reward scores Agent Lab rows (agent_lab/<family>) only")
    return float(score_response(solution_str, ground_truth, **kwargs)["reward"])


def _main() -> int:
    for n, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            result = score_response(case["solution_str"], case["ground_truth"], **case.get("settings", {}))
        except (ValueError, KeyError, TypeError) as err:
            print(f"stdin line {n}: {err}", file=sys.stderr)
            return 1
        sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
