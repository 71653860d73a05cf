import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng, mulberry32 } from '../../main/common/rng.ts';
import { tierFromSeed } from '../../main/tasks/families/common/seeds.ts';
import { esc, html, money, raw } from '../../main/tasks/families/common/html.ts';
import { answerMatches, normalizeText, parseNumber } from '../../main/common/normalize.ts';
import { q } from '../../main/tasks/families/common/oracle.ts';
import { parseDate } from '../../main/tasks/families/common/dates.ts';
import { parseAction } from '../../main/environment/actions.ts';

test('mulberry32 is deterministic and seed-dependent', () => {
  const a = mulberry32(42);
  const b = mulberry32(42);
  const c = mulberry32(43);
  const xs = [a(), a(), a()];
  assert.deepEqual(xs, [b(), b(), b()]);
  assert.notDeepEqual(xs, [c(), c(), c()]);
  const r = new Rng(7);
  for (let i = 0; i < 1000; i++) {
    const n = r.int(3, 5);
    assert.ok(n >= 3 && n <= 5 && Number.isInteger(n));
  }
  assert.ok([1, 2, 3].includes(tierFromSeed(12, 'x')));
});

test('html escapes interpolated text but keeps trusted markup', () => {
  assert.equal(esc(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  const evil = '<script>alert(1)</script>';
  assert.equal(html`<p>${evil}</p>`.html, '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  assert.equal(html`<p>${raw('<b>ok</b>')}${[html`<i>${'<'}</i>`]}</p>`.html, '<p><b>ok</b><i>&lt;</i></p>');
  assert.equal(html`${null}${undefined}${false}${0}`.html, '0');
  assert.equal(money(129900), '$1,299.00');
  assert.equal(money(5), '$0.05');
});

test('answers match across number formats, case, spacing and surrounding words', () => {
  assert.ok(answerMatches('$1,299.00', '1299'));
  assert.ok(answerMatches('$1,299.00', 'The amount due is $1,299.00.'));
  assert.ok(answerMatches('1299', '1,299.00'));
  assert.ok(!answerMatches('$1,299.00', '1,299.50'));
  assert.ok(answerMatches('QXR-4417', 'the code is qxr-4417'));
  assert.ok(answerMatches('QXR-4417', '  QXR-4417  '));
  assert.ok(!answerMatches('QXR-4417', 'QXR-4418'));
  assert.ok(answerMatches('Room 4B', 'It is in room 4b.'));
  assert.ok(answerMatches('7:30 PM', 'The table is booked for 7:30 pm'));
  assert.ok(!answerMatches('Room 4B', 'Room 4'));
  assert.equal(normalizeText('  "Hello   World!" '), 'hello world');
  assert.equal(parseNumber('1,299.00'), 1299);
  assert.equal(parseNumber('12,34'), null);
});

test('dates are read in the formats people type', () => {
  for (const t of ['2026-03-14', '14 March 2026', 'March 14, 2026', '3/14/2026', 'Saturday, 14 March 2026', '14 Mar 2026']) assert.equal(parseDate(t), '2026-03-14', t);
  assert.equal(parseDate('2026-02-30'), null);
  assert.equal(parseDate('tomorrow'), null);
});

test('quoted action arguments survive the environment parser', () => {
  const text = `O'Brien says "hi" \\ bye`;
  const a = parseAction(`fill('12', ${q(text)})`);
  assert.equal(a.type, 'fill');
  assert.equal((a as { text: string }).text, text);
});
