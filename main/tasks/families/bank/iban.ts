/**
 * IBAN-like account numbers: two letters, two check digits, four bank letters and fourteen digits.
 * The check digits follow the real mod-97 rule, so a mistyped digit is caught the way a bank
 * catches it, and the site can tell "malformed" from "does not check out".
 */
import type { Rng } from '../../../common/rng.ts';

const COUNTRIES = ['GB', 'DE', 'NL', 'IE', 'FR', 'ES', 'BE'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The remainder mod 97 of a string read with letters as numbers (A=10 ... Z=35). */
function mod97(s: string): number {
  let r = 0;
  for (const ch of s) {
    const digits = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) r = (r * 10 + Number(d)) % 97;
  }
  return r;
}

export function makeIban(rng: Rng): string {
  const country = rng.pick(COUNTRIES);
  let bban = '';
  for (let i = 0; i < 4; i++) bban += LETTERS[rng.below(26)];
  for (let i = 0; i < 14; i++) bban += String(rng.below(10));
  const check = 98 - mod97(bban + country + '00');
  return country + String(check).padStart(2, '0') + bban;
}

/** What people type, as the bank stores it: no spaces or dashes, upper case. */
export function normalizeIban(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/** Why a typed account number is refused, or null when it is a valid one. */
export function ibanProblem(text: string): 'missing' | 'malformed' | 'checksum' | null {
  const s = normalizeIban(text);
  if (!s) return 'missing';
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return 'malformed';
  return mod97(s.slice(4) + s.slice(0, 4)) === 1 ? null : 'checksum';
}

/** Printed in groups of four, as on a bank statement. */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}
