import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer, trainTokenizer, END_OF_TEXT } from '../../main/models/tokenizer.ts';
import { Rng } from '../../main/common/rng.ts';

const corpus = [
  'interface Array<T> {\n    readonly length: number;\n    push(...items: T[]): number;\n}\n',
  'function map<U>(callbackfn: (value: T, index: number) => U): U[];\n'.repeat(5),
];

test('tokenizer round-trips arbitrary text through byte fallback', () => {
  const tok = trainTokenizer(corpus, 300);
  const rng = new Rng(3);
  const alphabet = ['a', 'Z', ' ', '\n', '\t', '{', '}', 'é', 'ß', '中', '文', '😀', '\u0000', '\u200d', 'readonly', 'number', '  '];
  for (let i = 0; i < 200; i++) {
    let s = '';
    const n = rng.below(40);
    for (let j = 0; j < n; j++) s += rng.next() < 0.5 ? alphabet[rng.below(alphabet.length)] : String.fromCodePoint(rng.below(0x2ffff) & ~0x800);
    // Lone surrogates are not text UTF-8 can carry; keep generated strings valid Unicode.
    s = s.replace(/[\ud800-\udfff]/gu, '?');
    assert.equal(tok.decode(tok.encode(s)), s);
  }
  assert.equal(tok.decode(tok.encode('')), '');
});

test('tokenizer training is deterministic and merges help on its corpus', () => {
  const a = trainTokenizer(corpus, 320);
  const b = trainTokenizer([...corpus], 320);
  assert.deepEqual(a.toJSON(), b.toJSON());
  const text = corpus.join('');
  assert.ok(a.encode(text).length < new TextEncoder().encode(text).length / 2);
  const again = new Tokenizer(JSON.parse(JSON.stringify(a.toJSON())));
  assert.deepEqual(again.encode(text), a.encode(text));
  assert.equal(a.vocabSize, 256 + a.merges.length + 1);
  assert.equal(a.specialId(END_OF_TEXT), a.vocabSize - 1);
  assert.equal(a.decode([a.specialId(END_OF_TEXT)]), END_OF_TEXT);
});
