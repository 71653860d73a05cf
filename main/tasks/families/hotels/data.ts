/** Hotel site data: cities, hotels with stars, guest ratings, amenities and room types, all from the seed. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { UiState } from '../common/site.ts';
import type { Variant } from './variant.ts';

export const CITIES = ['Lisbon', 'Kyoto', 'Denver', 'Montreal', 'Valencia', 'Oslo', 'Austin', 'Edinburgh', 'Porto', 'Vienna'];
const NEIGHBORHOODS = ['Old Town', 'Riverside', 'City Centre', 'Harbourfront', 'University District', 'Arts Quarter', 'Station Area', 'Hillside'];
const NAME_A = ['Harbor', 'Grand', 'Cedar', 'Marigold', 'Seaside', 'Copper', 'Alder', 'Lantern', 'Juniper', 'Riverside', 'Summit', 'Bluebell', 'Ivory', 'Maple', 'Granite', 'Willow', 'Saffron', 'Orchid', 'Beacon', 'Heron'];
const NAME_B = ['Hotel', 'Inn', 'Suites', 'Lodge', 'House', 'Residences', 'Boutique Hotel'];
const STREETS = ['Rua Augusta', 'Main Street', 'King Street', 'Market Road', 'Park Avenue', 'Elm Street', 'Canal Way', 'Station Road'];
export const AMENITIES = ['Free breakfast', 'Pool', 'Free parking', 'Fitness center', 'Pet friendly', 'Spa'] as const;

export const ROOM_TYPES = [
  { name: 'Standard Queen Room', sleeps: 2, mult: 1 },
  { name: 'Twin Room', sleeps: 2, mult: 1.12 },
  { name: 'Deluxe King Room', sleeps: 2, mult: 1.34 },
  { name: 'Junior Suite', sleeps: 3, mult: 1.58 },
  { name: 'Family Suite', sleeps: 4, mult: 1.86 },
] as const;

export interface Room {
  id: string;
  name: string;
  sleeps: number;
  /** Cents per night. */
  price: number;
  refundable: boolean;
}

export interface Hotel {
  id: number;
  name: string;
  city: string;
  neighborhood: string;
  address: string;
  stars: number;
  /** Guest score out of 10, one decimal. */
  rating: number;
  reviews: number;
  amenities: string[];
  rooms: Room[];
  /** Position in the "Recommended" order. */
  rank: number;
}

export type HotelsGoal =
  | { kind: 'room_price'; hotel: number; room: string; answer: string }
  | { kind: 'cheapest'; city: string; minStars: number; guests: number; answer: string }
  | { kind: 'book'; hotel: number; room: string; checkin: string; checkout: string; guests: number; first: string; last: string; email: string; minStars?: number; breakfast?: boolean };

export interface HotelBooking {
  code: string;
  hotel: number;
  room: string;
  checkin: string;
  checkout: string;
  guests: number;
  first: string;
  last: string;
  email: string;
  requests: string;
  total: number;
}

export interface HotelsState {
  siteName: string;
  today: string;
  cities: string[];
  hotels: Hotel[];
  goal: HotelsGoal;
  /** The search the task is about (city, dates, guests), for the oracle and for tests. */
  search: { city: string; checkin: string; checkout: string; guests: number };
  bookings: HotelBooking[];
  ui: UiState;
  /** How this instance looks and words itself (variant.ts); drawn apart from everything above. */
  variant: Variant;
}

export function ratingWord(r: number): string {
  return r >= 9 ? 'Exceptional' : r >= 8.5 ? 'Excellent' : r >= 8 ? 'Very good' : r >= 7 ? 'Good' : 'Pleasant';
}

/** Cheapest room of a hotel that sleeps the party, or undefined when none does. */
export function cheapestFitting(h: Hotel, guests: number): Room | undefined {
  return h.rooms.filter((r) => r.sleeps >= guests).sort((a, b) => a.price - b.price)[0];
}

export function generateHotels(seed: number): { cities: string[]; hotels: Hotel[] } {
  const rng = new Rng(mixSeed(seed, 'hotels-data'));
  const cities = rng.sample(CITIES, 5);
  const names = rng.shuffle(NAME_A.flatMap((a) => NAME_B.map((b) => `${a} ${b}`)));
  const hotels: Hotel[] = [];
  let id = 100 + rng.int(0, 50);
  for (const city of cities) {
    const usedBase = new Set<number>();
    const n = rng.int(13, 17);
    for (let i = 0; i < n; i++) {
      const stars = rng.pick([2, 3, 3, 3, 4, 4, 4, 5, 5]);
      let base = 40 + stars * 30 + rng.int(0, 90);
      while (usedBase.has(base)) base++;
      usedBase.add(base);
      const types = [ROOM_TYPES[0], ...rng.sample(ROOM_TYPES.slice(1), rng.int(1, 3))].sort((a, b) => a.mult - b.mult);
      const hid = id;
      id += rng.int(1, 9);
      hotels.push({
        id: hid,
        name: names.pop()!,
        city,
        neighborhood: rng.pick(NEIGHBORHOODS),
        address: `${rng.int(2, 240)} ${rng.pick(STREETS)}, ${city}`,
        stars,
        rating: Math.min(9.9, Math.round((6 + rng.next() * 3.8 + (stars - 3) * 0.2) * 10) / 10),
        reviews: rng.int(40, 4200),
        amenities: AMENITIES.filter(() => rng.chance(0.45)),
        rooms: types.map((t, k) => ({ id: `r${k + 1}`, name: t.name, sleeps: t.sleeps, price: Math.round(base * t.mult) * 100, refundable: rng.chance(0.6) })),
        rank: 0,
      });
    }
  }
  // "Recommended" is a seeded popularity order, not price or rating.
  rng.shuffle(hotels).forEach((h, i) => (h.rank = i));
  return { cities, hotels };
}
