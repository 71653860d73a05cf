/** The benchmark importers: each public format parses into tasks; a malformed row is refused with its row number and field. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportError, parseImportFile, WEBTAILBENCH_DEFAULT_START, type ImportFormat } from '../../main/tasks/imported/formats.ts';
import { checkTaskSetName, importedFamily, loadTaskSet, saveTaskSet, taskSetNames } from '../../main/tasks/imported/taskset.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { runLab } from '../helpers/lab-cli.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'imports');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const parse = (format: ImportFormat, name: string, text = fixture(name)) => parseImportFile(format, name, text);

/** The ImportError a parse throws, for assertions on its row and field. */
function refusal(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ImportError, `expected an ImportError, got ${err}`);
    return err;
  }
  assert.fail('expected the file to be refused');
}

test('WebVoyager JSON Lines: one task per line, blank lines skipped, rows are line numbers, 15-action budget', () => {
  const tasks = parse('webvoyager', 'webvoyager.jsonl');
  assert.deepEqual(tasks.map((t) => [t.id, t.row, t.site, t.startUrl]), [
    ['Allrecipes--0', 1, 'Allrecipes', 'https://www.allrecipes.com/'],
    ['Allrecipes--1', 2, 'Allrecipes', 'https://www.allrecipes.com/'],
    ['GitHub--0', 4, 'GitHub', 'https://github.com/'],
  ]);
  assert.match(tasks[2].instruction, /^Find the most starred open-source text editor written in Rust/);
  assert.ok(tasks.every((t) => t.format === 'webvoyager' && t.maxSteps === 15 && t.tier === 2 && t.file === 'webvoyager.jsonl'));
});

test('Online-Mind2Web JSON: tiers from reference_length (easy <= 5, hard >= 11), rows are array positions', () => {
  const tasks = parse('mind2web', 'mind2web.json');
  assert.deepEqual(tasks.map((t) => [t.id, t.row, t.referenceLength, t.tier, t.site]), [
    ['a1f3c9e2b7d84c10', 1, 9, 2, 'www.example-airline.com'],
    ['0c55d2a9e4f14b7e', 2, 3, 1, 'www.example-library.org'],
    ['7b2e90d1c3a64f58', 3, 14, 3, 'www.example-rentals.com'],
  ]);
  // Twice the reference length, never under the tier's budget.
  assert.deepEqual(tasks.map((t) => t.maxSteps), [20, 10, 30]);
  assert.equal(tasks[1].instruction, 'Show the opening hours of the central branch.');
});

test('WebTailBench TSV: header benchmark/id/task_summary, segment kept, a search start page (or the one given), 100 actions', () => {
  const tasks = parse('webtailbench', 'webtailbench.tsv');
  assert.deepEqual(tasks.map((t) => [t.id, t.row, t.segment]), [
    ['gearshop_01', 2, 'shopping'],
    ['skyline_02', 3, 'flights'],
    ['compare_03', 4, 'comparison'],
  ]);
  assert.ok(tasks.every((t) => t.startUrl === WEBTAILBENCH_DEFAULT_START && t.maxSteps === 100 && t.tier === 3));
  const own = parseImportFile('webtailbench', 'w.tsv', fixture('webtailbench.tsv'), { startUrl: 'https://duckduckgo.com' });
  assert.equal(own[0].startUrl, 'https://duckduckgo.com/');
});

test('a malformed row is refused with its file, row number and field', () => {
  let e = refusal(() => parse('webvoyager', 'webvoyager-malformed.jsonl'));
  assert.equal(e.row, 2);
  assert.equal(e.field, 'ques');
  assert.equal(e.message, 'webvoyager-malformed.jsonl: row 2: field "ques": missing');

  e = refusal(() => parse('webvoyager', 'x.jsonl', '{"web_name":"A","id":"A--0","ques":"q","web":"https://a.example/"}\n{"web_name": "A", "id": "A--1",'));
  assert.equal(e.row, 2);
  assert.match(e.message, /^x\.jsonl: row 2: not valid JSON/);

  e = refusal(() => parse('webvoyager', 'x.jsonl', '{"web_name":"A","id":"A--0","ques":"q","web":"ftp://a.example/"}'));
  assert.deepEqual([e.row, e.field], [1, 'web']);
  assert.match(e.message, /only http\(s\) start pages/);

  e = refusal(() => parse('webvoyager', 'x.jsonl', '{"web_name":"A","id":"A--0","ques":"q","web":"https://a.example/"}\n{"web_name":"A","id":"A--0","ques":"r","web":"https://a.example/"}'));
  assert.deepEqual([e.row, e.field], [2, 'id']);
  assert.match(e.message, /duplicate task id "A--0" \(first on row 1\)/);

  e = refusal(() => parse('mind2web', 'mind2web-malformed.json'));
  assert.deepEqual([e.row, e.field], [2, 'reference_length']);
  assert.equal(e.message, 'mind2web-malformed.json: row 2: field "reference_length": expected a whole number of steps >= 1, found "three"');

  e = refusal(() => parse('mind2web', 'm.json', '{"task_id": "x"}'));
  assert.match(e.message, /expected a JSON array of tasks/);

  e = refusal(() => parse('mind2web', 'm.json', '[{"task_id": "x", "website": "not a url", "task_description": "d", "reference_length": 3}]'));
  assert.deepEqual([e.row, e.field], [1, 'website']);

  e = refusal(() => parse('webtailbench', 'webtailbench-malformed.tsv'));
  assert.equal(e.row, 3);
  assert.match(e.message, /^webtailbench-malformed\.tsv: row 3: expected 3 tab-separated cells as in the header, found 2$/);

  e = refusal(() => parse('webtailbench', 'w.tsv', 'segment\tid\ttask\nshopping\ta\tb\n'));
  assert.deepEqual([e.row, e.field], [1, 'benchmark']);

  e = refusal(() => parse('webtailbench', 'w.tsv', 'benchmark\tid\ttask_summary\nshopping\ta\t  \n'));
  assert.deepEqual([e.row, e.field], [2, 'task_summary']);
  assert.match(e.message, /empty$/);

  assert.throws(() => parse('mind2web', 'm.json', '[]'), /no tasks in the file/);

  // A file can send anything: an instruction, id or URL past its cap is refused, named, before it reaches an episode header.
  const long = 'x'.repeat(10_001);
  e = refusal(() => parse('webvoyager', 'x.jsonl', JSON.stringify({ web_name: 'A', id: 'A--0', ques: long, web: 'https://a.example/' })));
  assert.equal(e.message, 'x.jsonl: row 1: field "ques": 10,001 characters, more than the 10,000 this field may hold');
  e = refusal(() => parse('webvoyager', 'x.jsonl', JSON.stringify({ web_name: 'A', id: 'i'.repeat(201), ques: 'q', web: 'https://a.example/' })));
  assert.deepEqual([e.field, e.detail], ['id', '201 characters, more than the 200 this field may hold']);
  e = refusal(() => parse('mind2web', 'm.json', JSON.stringify([{ task_id: 'x', website: `https://a.example/${'p'.repeat(4_000)}`, task_description: 'd', reference_length: 3 }])));
  assert.equal(e.field, 'website');
  // A long but ordinary URL still imports.
  assert.equal(parse('mind2web', 'm.json', JSON.stringify([{ task_id: 'x', website: `https://a.example/${'p'.repeat(500)}`, task_description: 'd', reference_length: 3 }])).length, 1);
});

test('a task set is kept in the lab and becomes a judged family: row position as seed, live-web start URL, no oracle', () => {
  const lab = mkdtempSync(join(tmpdir(), 'lab-import-'));
  const tasks = parse('mind2web', 'mind2web.json');
  saveTaskSet(lab, 'om2w', tasks);
  assert.deepEqual(taskSetNames(lab), ['om2w']);
  assert.deepEqual(loadTaskSet(lab, 'om2w'), tasks);
  const f = importedFamily('om2w', tasks);
  assert.equal(f.checker, 'judge');
  assert.deepEqual(f.seeds.test, { from: 0, to: 3 });
  assert.equal(f.seeds.train.from, f.seeds.train.to, 'never trained on');
  const g = f.generate(2);
  assert.equal(g.startUrl, 'https://www.example-rentals.com/');
  assert.equal(g.tier, 3);
  assert.equal(g.maxSteps, 30);
  assert.deepEqual(g.source, { format: 'mind2web', id: '7b2e90d1c3a64f58', file: 'mind2web.json', row: 3 });
  assert.throws(() => f.generate(3), /has tasks 0\.\.2; there is no task 3/);
  assert.throws(() => f.oracle({} as never), /no oracle/);
});

test('`lab tasks import` through the command line: imports, lists, and refuses a malformed file naming the row', async () => {
  const lab = mkdtempSync(join(tmpdir(), 'lab-import-cli-'));
  const cli = (...args: string[]) => runLab('--lab', lab, ...args);
  const out = JSON.parse((await cli('tasks', 'import', join(FIXTURES, 'webvoyager.jsonl'), '--format', 'webvoyager', '--json')).stdout);
  assert.deepEqual([out.name, out.tasks, out.tiers], ['webvoyager', 3, { '1': 0, '2': 3, '3': 0 }]);
  saveTaskSet(lab, 'wtb', parse('webtailbench', 'webtailbench.tsv'));
  const rows = JSON.parse((await cli('tasks', 'list', '--json')).stdout) as Array<{ family: string; checker?: string; testSeeds: number[] }>;
  assert.deepEqual(rows.filter((r) => r.checker === 'judge').map((r) => [r.family, r.testSeeds]), [['webvoyager', [0, 2]], ['wtb', [0, 2]]]);
  await assert.rejects(cli('tasks', 'import', join(FIXTURES, 'mind2web-malformed.json'), '--format', 'mind2web'), /mind2web-malformed\.json: row 2: field "reference_length"/);
  assert.deepEqual(taskSetNames(lab), ['webvoyager', 'wtb'], 'a refused file leaves no task set behind');
});

test('task set names: lowercase, and never a built-in family', () => {
  assert.throws(() => checkTaskSetName('shop', builtinFamilies().keys()), /"shop" is a built-in task family/);
  assert.throws(() => checkTaskSetName('My Set'), /task set name must be lowercase/);
  checkTaskSetName('webvoyager-2026.v1', builtinFamilies().keys());
});
