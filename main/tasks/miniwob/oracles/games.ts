/**
 * Oracles for MiniWoB++'s small games: guess-number (halve the range on each "higher" / "lower"
 * the page answers) and tic-tac-toe (play X against the page's O).
 */
import type { Observation } from '../../../environment/types.ts';
import { byRole, click, fill, oracle, stuck, submitButton, visible } from './base.ts';

/** guess-number's feedback line: `The number is lower than 5.` -> {dir: 'lower', than: 5}. */
export function guessFeedback(obs: Observation): { dir: 'higher' | 'lower'; than: number } | undefined {
  for (const e of visible(obs)) {
    const m = /number is (higher|lower) than (-?\d+)/i.exec(e.name);
    if (m) return { dir: m[1].toLowerCase() as 'higher' | 'lower', than: Number(m[2]) };
  }
  return undefined;
}

/** `Guess the number between 0-9 ...` -> [0, 9]. */
export function guessRange(instruction: string): [number, number] {
  const m = /between\s+(-?\d+)\s*-\s*(-?\d+)/i.exec(instruction);
  return m ? [Number(m[1]), Number(m[2])] : [0, 9];
}

const guessNumber = oracle<{ lo?: number; hi?: number; guess?: number; typed: boolean }>(
  (obs, mem) => {
    if (mem.lo === undefined || mem.hi === undefined) [mem.lo, mem.hi] = guessRange(obs.instruction);
    const said = guessFeedback(obs);
    // The feedback is about the last guess submitted: narrow the range once per guess.
    if (said && said.than === mem.guess && !mem.typed) {
      if (said.dir === 'higher') mem.lo = Math.max(mem.lo, said.than + 1);
      else mem.hi = Math.min(mem.hi, said.than - 1);
      mem.guess = undefined;
    }
    const box = byRole(obs, 'spinbutton', 'textbox')[0];
    if (!box) return stuck('no number field');
    if (mem.guess === undefined) {
      mem.guess = Math.floor((mem.lo + mem.hi) / 2);
      mem.typed = true;
      return fill(box, String(mem.guess), `The number is in ${mem.lo}-${mem.hi}: guess the middle, ${mem.guess}.`);
    }
    const submit = submitButton(obs);
    if (!submit) return stuck('no Submit button');
    mem.typed = false;
    return click(submit, `Submit the guess ${mem.guess}.`);
  },
  () => ({ typed: false }),
);

/** A tic-tac-toe board: 1 for X (ours), -1 for O, 0 for free; cells 0-8 row by row. */
type Board = number[];
const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

function winner(b: Board): number {
  for (const [x, y, z] of LINES) if (b[x] !== 0 && b[x] === b[y] && b[y] === b[z]) return b[x];
  return 0;
}

/** A free cell that completes a line of `who`'s, if any. */
function completing(b: Board, who: number): number[] {
  return LINES.flatMap((l) => {
    const free = l.filter((c) => b[c] === 0);
    return free.length === 1 && l.filter((c) => b[c] === who).length === 2 ? free : [];
  });
}

/**
 * The chance that X wins from here with X to move, against an O that takes a win when it has
 * one, else blocks X's win, else may go anywhere (each free cell alike). A model of the page's
 * opponent from watching it, not its code: pessimistic where the page plays at random more often.
 */
export function winChance(b: Board, xToMove: boolean): number {
  const w = winner(b);
  if (w) return w === 1 ? 1 : 0;
  const free = b.flatMap((v, i) => (v === 0 ? [i] : []));
  if (!free.length) return 0;
  if (xToMove) return Math.max(...free.map((c) => winChance(place(b, c, 1), false)));
  const win = completing(b, -1);
  if (win.length) return winChance(place(b, win[0], -1), true);
  const block = completing(b, 1);
  const moves = block.length ? [...new Set(block)] : free;
  return moves.reduce((sum, c) => sum + winChance(place(b, c, -1), true), 0) / moves.length;
}

function place(b: Board, c: number, who: number): Board {
  const next = b.slice();
  next[c] = who;
  return next;
}

/**
 * X's best cell on a board: a win now if there is one, else the highest chance to win; between
 * equal chances, a cell that leaves O no win on its next move (a draw is a smaller loss).
 */
export function bestMove(b: Board): number {
  const free = b.flatMap((v, i) => (v === 0 ? [i] : []));
  let best = free[0];
  let score = -1;
  for (const c of free) {
    const next = place(b, c, 1);
    const s = winner(next) === 1 ? 2 : winChance(next, false) + (completing(next, -1).length ? 0 : 1e-6);
    if (s > score) [best, score] = [c, s];
  }
  return best;
}

/**
 * tic-tac-toe: the nine cells are the board's clickables in reading order; a marked cell shows
 * as an image (both marks alike, so the oracle remembers which cells it marked: the others are O's).
 */
const ticTacToe = oracle<{ mine: string[] }>(
  (obs, mem) => {
    const cells = byRole(obs, 'generic', 'image').filter((e) => !e.name && e.box.width >= 20 && Math.abs(e.box.width - e.box.height) < 4);
    if (cells.length !== 9) return stuck(`the board shows ${cells.length} cells, not 9`);
    const board = cells.map((c) => (mem.mine.includes(c.id) ? 1 : c.role === 'image' ? -1 : 0));
    const move = bestMove(board);
    mem.mine.push(cells[move].id);
    return click(cells[move], `Play X in cell ${move + 1} (row ${Math.floor(move / 3) + 1}, column ${(move % 3) + 1}).`);
  },
  () => ({ mine: [] }),
);

export const GAME_ORACLES = {
  'guess-number': guessNumber,
  'tic-tac-toe': ticTacToe,
};
