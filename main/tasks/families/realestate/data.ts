/** Real-estate data: homes for sale with type, beds, baths, size, year built and HOA, all from the seed. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { Variant } from './variant.ts';

export const CITIES = ['Portland', 'Raleigh', 'Boise', 'Madison', 'Tucson', 'Richmond', 'Spokane', 'Omaha'];
const NEIGHBORHOODS = ['Northside', 'Old Mill', 'Lakeview', 'Cedar Park', 'Downtown', 'Maple Heights'];
const STREETS = ['Oak St', 'Birch Ln', 'Juniper Ave', 'Harbor Dr', 'Willow Way', 'Summit Rd', 'Aspen Ct', 'Meadow Ln', 'Pine St', 'Elm Ave', 'Ridge Rd', 'Lake St'];
export const TYPES = ['House', 'Condo', 'Townhouse'] as const;
const AGENTS = ['Maria Lopez', 'Dev Patel', 'Sam Carter', 'Grace Kim', 'Owen Price', 'Lena Fischer'];
/** Tour slots, hourly. */
export const TOUR_TIMES = ['10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00'];

export function timeLabel(t: string): string {
  const [h, m] = t.split(':').map(Number);
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

export interface Home {
  id: number;
  address: string;
  city: string;
  neighborhood: string;
  type: (typeof TYPES)[number];
  beds: number;
  baths: number;
  sqft: number;
  /** Dollars; distinct across listings. */
  price: number;
  yearBuilt: number;
  /** Monthly HOA fee in dollars, 0 for none. */
  hoa: number;
  daysListed: number;
  agent: string;
}

export type HomeGoal =
  | { kind: 'fact'; home: number; label: string; answer: string }
  | { kind: 'tour'; home: number; date: string; time: string; name: string; email: string; phone: string; city?: string; type?: string; beds?: number };

export interface Tour {
  code: string;
  home: number;
  date: string;
  time: string;
  name: string;
  email: string;
  phone: string;
}

export interface RealEstateState {
  siteName: string;
  today: string;
  homes: Home[];
  saved: number[];
  tours: Tour[];
  goal: HomeGoal;
  /** How this instance looks and words itself (./variant.ts); no part of the task. */
  variant: Variant;
}

export function generateHomes(seed: number): Home[] {
  const rng = new Rng(mixSeed(seed, 'realestate-data'));
  const cities = rng.sample(CITIES, 4);
  const homes: Home[] = [];
  const prices = new Set<number>();
  const addresses = new Set<string>();
  let id = 7000 + rng.int(0, 900);
  const n = rng.int(48, 60);
  while (homes.length < n) {
    const address = `${rng.int(10, 9890)} ${rng.pick(STREETS)}`;
    if (addresses.has(address)) continue;
    addresses.add(address);
    const type = rng.pick(TYPES);
    const beds = type === 'Condo' ? rng.int(1, 3) : rng.int(2, 5);
    const sqft = Math.round((450 + beds * 380 + rng.int(-150, 400)) / 10) * 10;
    let price = Math.round((sqft * rng.int(180, 420)) / 1000) * 1000;
    while (prices.has(price)) price += 1000;
    prices.add(price);
    homes.push({
      id,
      address,
      city: rng.pick(cities),
      neighborhood: rng.pick(NEIGHBORHOODS),
      type,
      beds,
      baths: Math.max(1, beds - rng.int(0, 2)),
      sqft,
      price,
      yearBuilt: rng.int(1925, 2024),
      hoa: type === 'House' ? 0 : rng.int(12, 60) * 10,
      daysListed: rng.int(0, 90),
      agent: rng.pick(AGENTS),
    });
    id += rng.int(1, 11);
  }
  return homes;
}
