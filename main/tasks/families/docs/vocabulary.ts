/**
 * Words the docs sites are built from: invented library names, module and function words, and
 * the two naming styles (snake_case for a Python-like library, camelCase for a TypeScript-like one).
 * Library names are invented from syllables so that no real project is described.
 */
import type { Rng } from '../../../common/rng.ts';

export type Style = 'python' | 'typescript';

const SYLLABLES = ['qui', 'vel', 'dra', 'mon', 'zel', 'tor', 'bri', 'kas', 'lum', 'nex', 'pra', 'sil', 'vor', 'wyn', 'fen', 'gal', 'hob', 'jun', 'ost', 'rua'];

export function inventedWord(rng: Rng, syllables: number): string {
  let s = '';
  for (let i = 0; i < syllables; i++) s += rng.pick(SYLLABLES);
  return s[0].toUpperCase() + s.slice(1);
}

/** Module names: plain lower-case words, as libraries name their submodules. */
export const MODULES = ['io', 'net', 'cache', 'render', 'auth', 'stream', 'config', 'text', 'graph', 'store', 'events', 'image', 'log', 'tasks', 'crypto'];

/** A function name is a verb, often followed by a noun ("read" + "buffer"). */
export const VERBS = ['open', 'read', 'write', 'fetch', 'parse', 'load', 'save', 'send', 'connect', 'close', 'build', 'merge', 'split', 'encode', 'decode', 'resolve', 'watch', 'sync', 'flush', 'compile', 'query', 'retry', 'render', 'scan', 'pack', 'trim'];
export const NOUNS = ['stream', 'frame', 'header', 'token', 'record', 'buffer', 'config', 'session', 'route', 'queue', 'cursor', 'table', 'schema', 'index', 'batch', 'event', 'chunk', 'path', 'image', 'graph'];

/** Look-alike names made from a function's own name: one more word, a prefix, or a suffix. */
export const NEAR_SUFFIXES = ['all', 'async', 'many', 'safe', 'raw'];
export const LEGACY_AFFIXES = ['legacy', 'old', 'v0'];

/** Return types a function may name. */
export const RETURNS = ['Response', 'Stream', 'Record', 'Frame', 'Token', 'Session', 'Handle', 'Result', 'Batch', 'Cursor'];

/** Joins words in the library's style: ["buffer", "size"] -> buffer_size or bufferSize. */
export function identifier(words: readonly string[], style: Style): string {
  if (style === 'python') return words.join('_');
  return words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

/** Guide titles share no word with each other, so naming one guide never names another by accident. */
export const GUIDE_TITLES = [
  'Installation', 'Quick tour', 'Configuration files', 'Error handling', 'Working with streams', 'Caching results',
  'Testing your code', 'Deploying to production', 'Logging and tracing', 'Performance tips', 'Authentication basics', 'Migrating projects',
];

export const GUIDE_FILLER = [
  'This guide walks through the common case first and leaves the rare options for the end.',
  'Every snippet below can be pasted into a fresh project as it is.',
  'If something behaves differently on your machine, check the version selector at the top of the page.',
  'The examples assume that the library is already installed and imported.',
  'Most applications only need the defaults; change them when a measurement tells you to.',
  'Keep the objects you create short-lived unless the reference says otherwise.',
];

/** What a function does, by verb: the summary line of its page. */
export const SUMMARIES: Record<string, string> = {
  open: 'Opens {noun} and returns a handle to it.', read: 'Reads {noun} into memory.', write: 'Writes {noun} to its destination.',
  fetch: 'Fetches {noun} from a remote source.', parse: 'Parses {noun} from text.', load: 'Loads {noun} from disk.',
  save: 'Saves {noun} to disk.', send: 'Sends {noun} to every listener.', connect: 'Connects to {noun} and keeps the link open.',
  close: 'Closes {noun} and frees its resources.', build: 'Builds {noun} from its parts.', merge: 'Merges two or more {noun} objects into one.',
  split: 'Splits {noun} into smaller pieces.', encode: 'Encodes {noun} for transport.', decode: 'Decodes {noun} received from a peer.',
  resolve: 'Resolves {noun} to its final location.', watch: 'Watches {noun} and reports every change.', sync: 'Synchronises {noun} with the server.',
  flush: 'Flushes pending writes of {noun}.', compile: 'Compiles {noun} ahead of use.', query: 'Queries {noun} and returns the matching rows.',
  retry: 'Retries an operation on {noun} until it succeeds.', render: 'Renders {noun} to the screen.', scan: 'Scans {noun} for entries.',
  pack: 'Packs {noun} into a compact binary form.', trim: 'Trims {noun} to the given size.',
};
