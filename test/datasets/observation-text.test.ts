import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderObservationText, renderPrompt, SYSTEM_PROMPT } from '../../main/policy/observation-text.ts';
import { el, PAGE_ELEMENTS } from './helpers.ts';

const page = { url: 'http://shop.test/cart', title: 'Cart', elements: PAGE_ELEMENTS };

test('the page renders as URL, title and one line per visible element with its state', () => {
  const text = renderObservationText(page);
  assert.equal(
    text,
    [
      'URL: http://shop.test/cart',
      'Title: Cart',
      '[1] heading "Shop"',
      'Free shipping on orders over $50',
      '[3] textbox "City" value="Boston" required',
      '[4] combobox "Class" value="Economy" options: Economy | Business | First',
      '[5] checkbox "Gift wrap" checked',
      '[6] button "Add to cart" disabled',
      '[8] link "Footer link"',
    ].join('\n'),
  );
  assert.equal(renderObservationText(page), text, 'deterministic');
  assert.ok(!text.includes('Hidden thing'), 'invisible elements are skipped');
});

test('expanded, collapsed, invalid, mixed and long names are rendered compactly', () => {
  const text = renderObservationText({
    url: 'u',
    title: 't',
    elements: [
      el('1', 'button', 'Menu', { expanded: true }),
      el('2', 'button', 'More', { expanded: false }),
      el('3', 'textbox', 'Email', { invalid: true, value: '' }),
      el('4', 'checkbox', 'All', { checked: 'mixed' }),
      el('5', 'link', 'x'.repeat(300)),
    ],
  });
  const lines = text.split('\n');
  assert.equal(lines[2], '[1] button "Menu" expanded');
  assert.equal(lines[3], '[2] button "More" collapsed');
  assert.equal(lines[4], '[3] textbox "Email" invalid');
  assert.equal(lines[5], '[4] checkbox "All" checked=mixed');
  assert.ok(lines[6].length < 140 && lines[6].endsWith('…"'));
});

test('a character budget keeps the viewport first, page order, and says how much was left out', () => {
  const elements = [
    ...Array.from({ length: 30 }, (_, i) => el(String(i + 1), 'link', `Below the fold ${i + 1}`, { inViewport: false })),
    el('99', 'button', 'Checkout'),
  ];
  const text = renderObservationText({ url: 'http://x/', title: 'T', elements }, { maxChars: 200 });
  assert.ok(text.length <= 200, `${text.length} chars`);
  assert.match(text, /\[99\] button "Checkout"/, 'the in-viewport element survives');
  const omitted = Number(text.match(/… \((\d+) more elements not shown\)$/)?.[1]);
  const shown = text.split('\n').filter((l) => l.startsWith('[')).length;
  assert.equal(shown + omitted, 31);
  // Kept lines stay in page order: the viewport button (last on the page) comes last.
  const ids = text.split('\n').filter((l) => l.startsWith('[')).map((l) => Number(l.match(/^\[(\d+)\]/)![1]));
  assert.equal(ids.at(-1), 99);
  assert.equal(renderObservationText({ url: 'http://x/', title: 'T', elements }, { maxChars: 200 }), text);
});

test('renderPrompt builds system, user (task, page, history with errors) and assistant messages', () => {
  const messages = renderPrompt({
    instruction: 'Buy a red mug',
    observation: { ...page, lastActionError: { code: 'unknown_element', message: 'no element 42' } },
    history: [{ action: "click('42')", error: { code: 'unknown_element', message: 'no element 42' } }, { action: "fill('3', 'Boston')" }],
    target: { thought: 'The cart is ready.', action: "click('6')" },
  });
  assert.deepEqual(
    messages.map((m) => m.role),
    ['system', 'user', 'assistant'],
  );
  assert.equal(messages[0].content, SYSTEM_PROMPT);
  assert.match(messages[0].content, /select_option/);
  const user = messages[1].content;
  assert.match(user, /^Task: Buy a red mug\n/);
  assert.match(user, /\[6\] button "Add to cart" disabled/);
  assert.match(user, /1\. click\('42'\)  -> error unknown_element: no element 42\n2\. fill\('3', 'Boston'\)/);
  assert.match(user, /Last action failed: unknown_element/);
  assert.equal(messages[2].content, "The cart is ready.\nclick('6')");
  const bare = renderPrompt({ instruction: 'x', observation: page });
  assert.equal(bare.length, 2, 'no target, no assistant message');
  assert.match(bare[1].content, /Previous actions: none/);
});

test('only the last maxHistory actions are listed', () => {
  const history = Array.from({ length: 15 }, (_, i) => ({ action: `scroll(0, ${i})` }));
  const user = renderPrompt({ instruction: 'x', observation: page, history, maxHistory: 3 })[1].content;
  assert.match(user, /\(12 earlier actions not shown\)\n13\. scroll\(0, 12\)\n14\. scroll\(0, 13\)\n15\. scroll\(0, 14\)/);
});
