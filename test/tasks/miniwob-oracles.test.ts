/**
 * The MiniWoB++ oracles without a browser: the instruction parsers on sentences of the tasks'
 * kinds (written here, not copied from MiniWoB++), the decisions on observations built by hand,
 * and the registry (every task of the 56-task set has an oracle or a reason). The oracles on
 * pages in a real browser: miniwob-oracle-env.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Observation, PageElement } from '../../main/environment/types.ts';
import { buttonSequence, clickTarget, menuPath, ordinal, parseCoordinate } from '../../main/tasks/miniwob/oracles/clicks.ts';
import { itemsToSelect, spinnerValue } from '../../main/tasks/miniwob/oracles/choices.ts';
import { autocompleteBounds, isoDate, movieSearch, resultNumber, textToType, time24 } from '../../main/tasks/miniwob/oracles/forms.ts';
import { monthTitle, pickerText, slashDate } from '../../main/tasks/miniwob/oracles/date-picker.ts';
import { parseEmailTask } from '../../main/tasks/miniwob/oracles/email.ts';
import { posts, socialTarget } from '../../main/tasks/miniwob/oracles/social.ts';
import { airportFits, durationMinutes, parseFlightSearch } from '../../main/tasks/miniwob/oracles/book-flight.ts';
import { bestMove, guessRange, winChance } from '../../main/tasks/miniwob/oracles/games.ts';
import { arithmetic, solveForX, words } from '../../main/tasks/miniwob/oracles/reading.ts';
import { CAVEATS, NO_ORACLE, hasMiniwobOracle, miniwobOracleTasks, oracleFor, whyNoOracle } from '../../main/tasks/miniwob/oracles/index.ts';
import { GUR56_TASKS } from '../../main/tasks/miniwob/task-sets.ts';

let nextId = 1;
function el(role: string, name: string, extra: Partial<PageElement> = {}): PageElement {
  return { id: String(nextId++), role, name, tag: extra.tag ?? 'div', box: { x: 0, y: 0, width: 14, height: 14 }, visible: true, inViewport: true, ...extra };
}
function obs(instruction: string, elements: PageElement[], lastActionError: Observation['lastActionError'] = null): Observation {
  return { url: 'http://x/i/abc/miniwob/t.html', title: 't', instruction, elements, lastActionError, messages: [] };
}
async function actOnce(task: string, o: Observation): Promise<string> {
  const agent = oracleFor(task)!;
  agent.reset({} as never);
  return (await agent.act(o, [])).action;
}

test('click instructions: the target button, a sequence, a menu path, a coordinate, an ordinal', () => {
  assert.equal(clickTarget('Click on the "Okay" button.'), 'Okay');
  assert.equal(clickTarget('Click button TWO.'), 'TWO');
  assert.deepEqual(buttonSequence('Click button ONE, then click button TWO.'), ['ONE', 'TWO']);
  assert.deepEqual(menuPath('Select Anna>Bert>Cleo'), ['Anna', 'Bert', 'Cleo']);
  assert.deepEqual(parseCoordinate('Click on the grid coordinate (-2,1).'), [-2, 1]);
  assert.equal(ordinal('Focus into the 3rd input textbox.'), 3);
  assert.equal(ordinal('Focus into the textbox.'), 1);
});

test('choice and entry instructions: items, numbers, case, dates and times in the inputs\' formats', () => {
  assert.deepEqual(itemsToSelect('Select Ab1, c2D, EEe and click Submit.'), ['Ab1', 'c2D', 'EEe']);
  assert.deepEqual(itemsToSelect('Select nothing and click Submit.'), []);
  assert.deepEqual(itemsToSelect('Select Hong Kong from the scroll list and click Submit.'), ['Hong Kong']);
  assert.deepEqual(itemsToSelect('Select Oslo from the list and click Submit.'), ['Oslo']);
  assert.equal(spinnerValue('Select -7 with the spinner and hit Submit.'), -7);
  assert.equal(textToType('Type "Mira" in all upper case letters in the text input and press Submit.'), 'MIRA');
  assert.equal(textToType('Type "MIRA" in all lower case letters in the text input and press Submit.'), 'mira');
  assert.equal(textToType('Enter "x1y" into the text field and press Submit.'), 'x1y');
  assert.equal(isoDate('Enter 3/7/2019 as the date and hit submit.'), '2019-03-07');
  assert.equal(time24('Enter 12:05 AM as the time and press submit.'), '00:05');
  assert.equal(time24('Enter 12:40 PM as the time and press submit.'), '12:40');
  assert.equal(time24('Enter 7:15 PM as the time and press submit.'), '19:15');
  assert.deepEqual(slashDate('Select 11/02/2016 as the date and hit submit.'), { month: 11, day: 2, year: 2016 });
  assert.equal(pickerText({ month: 1, day: 9, year: 2016 }), '01/09/2016');
  assert.equal(monthTitle('February 2016'), 2016 * 12 + 1);
  assert.equal(monthTitle('Prev'), undefined);
  assert.deepEqual(movieSearch('Search for film noir movies directed by Ortiz from year 1984.'), { genre: 'film noir', director: 'Ortiz', year: '1984' });
  assert.deepEqual(autocompleteBounds('Enter an item that starts with "Ven" and ends with "uela".'), { start: 'Ven', end: 'uela' });
  assert.deepEqual(autocompleteBounds('Enter an item that starts with "Ku".'), { start: 'Ku' });
  assert.equal(resultNumber('Use the textbox to enter "Ana" and press "Search", then find and click the 7th search result.'), 7);
});

test('email tasks are read from any phrasing: a quoted message is a reply, two senders a forward, else delete or star', () => {
  const senders = ['Ilse', 'Omar', 'Tove', 'Ilse'];
  assert.deepEqual(parseEmailTask('Find the email by Omar and reply to them with the text "See you."', senders), { action: 'reply', sender: 'Omar', message: 'See you.' });
  assert.deepEqual(parseEmailTask('Tell Tove "Fine, Omar can come"', senders), { action: 'reply', sender: 'Tove', message: 'Fine, Omar can come' });
  assert.deepEqual(parseEmailTask('please answer Ilse with ""ok" "', senders), { action: 'reply', sender: 'Ilse', message: 'ok' });
  assert.deepEqual(parseEmailTask('Give Tove the message from Omar.', senders), { action: 'forward', sender: 'Omar', to: 'Tove' });
  assert.deepEqual(parseEmailTask('Send Ilses email on to Omar.', senders), { action: 'forward', sender: 'Ilse', to: 'Omar' });
  assert.deepEqual(parseEmailTask('Find the email by Tove and forward that email to Zed.', senders), { action: 'forward', sender: 'Tove', to: 'Zed' });
  assert.deepEqual(parseEmailTask('Please bin the mail from Omar.', senders), undefined, 'no word of deleting or starring that it knows');
  assert.deepEqual(parseEmailTask('Throw away what Omar wrote.', senders), { action: 'delete', sender: 'Omar' });
  assert.deepEqual(parseEmailTask('Delete the mails from Ilse that are marked important.', senders), { action: 'delete', sender: 'Ilse' });
  assert.deepEqual(parseEmailTask('Flag the note from Tove.', senders), { action: 'star', sender: 'Tove' });
  assert.equal(parseEmailTask('Star the email from Nobody.', senders), undefined);
});

test('social-media: posts and their icons from the element list; the target user and button', async () => {
  const feed = [
    el('text', 'Ana B @ana 2h ago'), el('text', 'Hello there.'), el('image', ''), el('image', ''), el('image', ''), el('image', ''),
    el('text', 'Cy D @cy 5h ago'), el('text', 'Bye.'), el('generic', ''), el('generic', ''), el('generic', ''), el('generic', ''),
  ];
  assert.deepEqual(posts(obs('', feed)).map((p) => [p.user, p.icons.length]), [['@ana', 4], ['@cy', 4]]);
  assert.deepEqual(socialTarget('For the user @cy, click on the "Like" button.'), { user: '@cy', button: 'Like' });
  assert.deepEqual(socialTarget('Click the "Share" button on all posts by @ana and then click Submit.'), { user: '@ana', button: 'Share', count: 'all' });
  assert.deepEqual(socialTarget('Click the "Reply" button on 2 posts by @ana and then click Submit.'), { user: '@ana', button: 'Reply', count: 2 });
  // Like is the third icon of @cy's row; Block is in the menu behind the fourth.
  assert.equal(await actOnce('social-media', obs('For the user @cy, click on the "Like" button.', feed)), `click('${feed[10].id}')`);
  assert.equal(await actOnce('social-media', obs('For the user @cy, click on the "Block" button.', feed)), `click('${feed[11].id}')`);
});

test('book-flight: the search, airports by city or code, durations', () => {
  assert.deepEqual(parseFlightSearch('Book the cheapest one-way flight from: Bend, OR to: LAX on 11/05/2016.'), { want: 'cheapest', from: 'Bend, OR', to: 'LAX', date: { month: 11, day: 5, year: 2016 } });
  assert.ok(airportFits('Bend, OR (RDM)', 'Bend, OR'));
  assert.ok(airportFits('Bend, OR (RDM)', 'RDM'));
  assert.ok(!airportFits('Bend, OR (RDM)', 'Bend'));
  assert.equal(durationMinutes('3h 7m'), 187);
});

test('games and sums: guess range, tic-tac-toe moves, arithmetic, algebra, words', () => {
  assert.deepEqual(guessRange('Guess the number between 0-9 and press Submit.'), [0, 9]);
  // X to move with two in a row: take the win.
  assert.equal(bestMove([1, 1, 0, -1, -1, 0, 0, 0, 0]), 2);
  // O threatens the middle row and no move wins for sure: block it rather than lose at once.
  const b = [1, 0, 0, -1, -1, 0, 1, 0, 0];
  assert.equal(bestMove(b), 5);
  assert.equal(winChance([1, 1, 1, 0, 0, 0, -1, -1, 0], false), 1);
  assert.equal(arithmetic('7 x 6 ='), 42);
  assert.equal(arithmetic('3 - 9 ='), -6);
  assert.equal(solveForX('x + 8 = 88'), 80);
  assert.equal(solveForX('12 - x = 5'), 7);
  assert.equal(solveForX('x - 3 = 4'), 7);
  assert.deepEqual(words('Nunc, diam nunc. Volutpat.'), ['Nunc', 'diam', 'nunc', 'Volutpat']);
});

test('a click that something covers is pressed from the keyboard, without asking the decision again', async () => {
  const agent = oracleFor('click-button-sequence')!;
  agent.reset({} as never);
  const one = el('button', 'ONE');
  const two = el('button', 'TWO');
  const page = (err: Observation['lastActionError'] = null) => obs('Click button ONE, then click button TWO.', [one, two], err);
  assert.equal((await agent.act(page(), [])).action, `click('${one.id}')`);
  assert.equal((await agent.act(page({ code: 'element_not_interactable', message: `element '${one.id}' is covered by <button id="b2">` }), [])).action, `press('${one.id}', 'Enter')`);
  assert.equal((await agent.act(page(), [])).action, `click('${two.id}')`, 'the sequence goes on with TWO');
});

test('multi-layouts: a label after its field (the first field comes before the first label)', async () => {
  const boxes = [el('textbox', '', { tag: 'input' }), el('textbox', '', { tag: 'input' }), el('textbox', '', { tag: 'input' })];
  const page = obs('Search for comedy movies directed by Ito from year 1990.', [boxes[0], el('text', 'Year'), boxes[1], el('text', 'Genre'), boxes[2], el('text', 'Director'), el('generic', 'Search')]);
  assert.equal(await actOnce('multi-layouts', page), `fill('${boxes[1].id}', 'comedy')`);
});

test('every task of the 56-task set has an oracle or a reason, never both; every caveat is on a task with an oracle', () => {
  assert.equal(GUR56_TASKS.length, 56);
  assert.equal(new Set(GUR56_TASKS).size, 56);
  for (const task of GUR56_TASKS) assert.ok(hasMiniwobOracle(task) !== task in NO_ORACLE, task);
  for (const task of miniwobOracleTasks()) assert.ok(!(task in NO_ORACLE), task);
  for (const task of Object.keys(CAVEATS)) assert.ok(hasMiniwobOracle(task), task);
  assert.ok(GUR56_TASKS.filter(hasMiniwobOracle).length >= 40);
  assert.match(whyNoOracle('click-color'), /colour/);
  assert.equal(oracleFor('click-color'), undefined);
  assert.equal(oracleFor('click-test')!.name, 'oracle:miniwob.click-test');
});
