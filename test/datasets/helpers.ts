/** Small real labs for dataset tests: episodes written with LabStore, real PNG screenshots. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { LabStore } from '../../main/store/lab.ts';
import type { PageElement } from '../../main/environment/types.ts';
import type { ObservationRecord } from '../../main/store/schema.ts';

export const tmpLab = () => new LabStore(mkdtempSync(join(tmpdir(), 'lab-datasets-')));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A valid w x h RGB PNG filled with one colour. */
export function makePng(w: number, h: number, rgb: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const box = { x: 0, y: 0, width: 10, height: 10 };
export function el(id: string, role: string, name: string, extra: Partial<PageElement> = {}): PageElement {
  return { id, role, name, tag: role === 'text' ? 'p' : 'div', box, visible: true, inViewport: true, ...extra };
}

export const PAGE_ELEMENTS: PageElement[] = [
  el('1', 'heading', 'Shop'),
  el('2', 'text', 'Free shipping on orders over $50'),
  el('3', 'textbox', 'City', { value: 'Boston', required: true }),
  el('4', 'combobox', 'Class', { value: 'Economy', options: ['Economy', 'Business', 'First'] }),
  el('5', 'checkbox', 'Gift wrap', { checked: true }),
  el('6', 'button', 'Add to cart', { disabled: true }),
  el('7', 'button', 'Hidden thing', { visible: false }),
  el('8', 'link', 'Footer link', { inViewport: false }),
];

export function observation(step: number, screenshot: string | null = null, error: ObservationRecord['lastActionError'] = null): ObservationRecord {
  return { url: `http://shop.test/page${step}`, title: `Page ${step}`, elements: PAGE_ELEMENTS, screenshot, lastActionError: error };
}

const timing = { agentMs: 1, actionMs: 1, settleMs: 1, observeMs: 1, totalMs: 4 };

export interface EpisodeSpec {
  family?: string;
  seed?: number;
  tier?: number;
  agent?: string;
  instruction?: string;
  actions?: string[];
  thoughts?: string[];
  /** true/false: an end record with that verdict; null: no end record (incomplete). */
  success?: boolean | null;
  /** One PNG per step (same length as actions) to record as screenshots. */
  screenshots?: Buffer[];
  createdAt?: string;
  /** The task seed's split as the episode records it (default train). */
  split?: 'train' | 'test' | 'other';
  /** The episode this one shortens. */
  shortenedFrom?: string;
}

/** Write one episode into the lab and return its id. */
export function writeEpisode(lab: LabStore, spec: EpisodeSpec = {}): string {
  const actions = spec.actions ?? ["click('6')", "fill('3', 'Boston')", "send_msg_to_user('done')"];
  const header = {
    task: { family: spec.family ?? 'shop', seed: spec.seed ?? 1, tier: spec.tier ?? 1, instruction: spec.instruction ?? 'Buy a red mug', startUrl: 'http://shop.test/', split: spec.split ?? ('train' as const) },
    agent: { name: spec.agent ?? 'oracle' },
    env: { viewport: { width: 100, height: 100 }, screenshots: !!spec.screenshots, browser: 'chromium' },
    links: spec.shortenedFrom ? { shortenedFrom: spec.shortenedFrom } : {},
    ...(spec.createdAt ? { createdAt: spec.createdAt } : {}),
  };
  const w = lab.createEpisode(header as Parameters<LabStore['createEpisode']>[0]);
  actions.forEach((action, i) => {
    const shot = spec.screenshots ? lab.blobs.put(spec.screenshots[i]) : null;
    // The first action fails, so the history and the next observation carry an error.
    const failed = { code: 'element_not_interactable', message: 'element 6 is disabled' };
    w.step({ observation: observation(i, shot, i === 1 ? failed : null), thought: spec.thoughts?.[i], action, error: i === 0 ? failed : null, timing });
  });
  const success = spec.success === undefined ? true : spec.success;
  if (success === null) w.abandon();
  else w.end({ success, reason: 'checker', keyPoints: [], messages: [], finalObservation: observation(actions.length), durationMs: 5 });
  return w.id;
}
