/** Restaurant site data: a city's restaurants with cuisine, price level, rating, menu and table availability. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { UiState } from '../common/site.ts';

export const CITIES = ['Chicago', 'Seattle', 'Boston', 'Portland', 'San Diego', 'Philadelphia', 'Minneapolis', 'Nashville'];
export const AREAS = ['Downtown', 'Riverside', 'Old Market', 'Northgate', 'Little Italy', 'Westside'];
export const CUISINES: Record<string, { names: string[]; dishes: string[] }> = {
  Italian: { names: ['Trattoria', 'Osteria', 'Cucina'], dishes: ['Margherita pizza', 'Spaghetti carbonara', 'Lasagna', 'Tiramisu', 'Risotto ai funghi', 'Bruschetta'] },
  Japanese: { names: ['Sushi Bar', 'Izakaya', 'Ramen House'], dishes: ['Salmon nigiri', 'Tonkotsu ramen', 'Chicken katsu', 'Miso soup', 'Edamame', 'Tempura udon'] },
  Mexican: { names: ['Cantina', 'Taqueria', 'Cocina'], dishes: ['Carne asada tacos', 'Chicken enchiladas', 'Guacamole', 'Churros', 'Pozole', 'Fish tacos'] },
  Indian: { names: ['Tandoor', 'Spice House', 'Curry House'], dishes: ['Butter chicken', 'Lamb biryani', 'Garlic naan', 'Palak paneer', 'Samosas', 'Mango lassi'] },
  Thai: { names: ['Thai Kitchen', 'Noodle Bar', 'Thai Garden'], dishes: ['Pad thai', 'Green curry', 'Tom yum soup', 'Papaya salad', 'Mango sticky rice', 'Drunken noodles'] },
  French: { names: ['Bistro', 'Brasserie', 'Café'], dishes: ['Steak frites', 'French onion soup', 'Coq au vin', 'Crème brûlée', 'Duck confit', 'Niçoise salad'] },
  American: { names: ['Grill', 'Diner', 'Smokehouse'], dishes: ['Cheeseburger', 'BBQ ribs', 'Mac and cheese', 'Apple pie', 'Buffalo wings', 'Club sandwich'] },
  Korean: { names: ['BBQ', 'Kitchen', 'Table'], dishes: ['Bibimbap', 'Bulgogi', 'Kimchi pancake', 'Japchae', 'Tteokbokki', 'Korean fried chicken'] },
};
const NAME_WORDS = ['Golden', 'Little', 'Blue', 'Red Door', 'Corner', 'Olive', 'Lotus', 'Copper', 'Harbor', 'Juniper', 'Maple', 'Saffron', 'Ember', 'Willow', 'Fig', 'Sage', 'Pepper', 'Lantern', 'Orchard', 'Basil'];
const STREETS = ['Main St', 'Oak Ave', 'Market St', '2nd Ave', 'Lake St', 'Elm St', 'Pine St', 'Broadway'];

/** Seatings every half hour, 17:00 to 21:30. */
export const TIMES = ['17:00', '17:30', '18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00', '21:30'];

export function timeLabel(t: string): string {
  const [h, m] = t.split(':').map(Number);
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

export function priceLabel(level: number): string {
  return '$'.repeat(level);
}

export interface Dish {
  name: string;
  price: number;
}

export interface Restaurant {
  id: number;
  name: string;
  cuisine: string;
  area: string;
  address: string;
  phone: string;
  priceLevel: number;
  /** Out of 5, one decimal; distinct within a cuisine and area. */
  rating: number;
  reviews: number;
  outdoor: boolean;
  menu: Dish[];
  rank: number;
}

export type RestaurantGoal =
  | { kind: 'phone'; restaurant: number; answer: string }
  | { kind: 'dish_price'; restaurant: number; dish: string; answer: string }
  | { kind: 'reserve'; restaurant: number; date: string; time: string; party: number; name: string; phone: string; cuisine?: string; area?: string; after?: string };

export interface Reservation {
  code: string;
  restaurant: number;
  date: string;
  time: string;
  party: number;
  name: string;
  phone: string;
  occasion: string;
  requests: string;
}

export interface RestaurantsState {
  siteName: string;
  city: string;
  today: string;
  restaurants: Restaurant[];
  goal: RestaurantGoal;
  reservations: Reservation[];
  /** The promotional dialog (a distractor) and whether the user signed up through it. */
  promo: { dismissed: boolean; joined: boolean };
  ui: UiState;
}

/** Is a table for the party free at that time? Seeded per restaurant, day and time; big parties find fewer tables. */
export function slotOpen(seed: number, r: Restaurant, date: string, time: string, party: number): boolean {
  const h = mixSeed(seed, 'slot', r.id, date, time) % 1000;
  return h >= (party > 4 ? 520 : 330);
}

export function generateRestaurants(seed: number): { city: string; restaurants: Restaurant[] } {
  const rng = new Rng(mixSeed(seed, 'restaurants-data'));
  const city = rng.pick(CITIES);
  const names = new Set<string>();
  const ratings = new Map<string, Set<number>>();
  const restaurants: Restaurant[] = [];
  let id = 200 + rng.int(0, 90);
  const cuisines = Object.keys(CUISINES);
  const n = rng.int(34, 42);
  while (restaurants.length < n) {
    const cuisine = rng.pick(cuisines);
    const c = CUISINES[cuisine];
    const name = `${rng.pick(NAME_WORDS)} ${rng.pick(c.names)}`;
    if (names.has(name)) continue;
    names.add(name);
    const area = rng.pick(AREAS);
    const key = `${cuisine}|${area}`;
    const used = ratings.get(key) ?? new Set<number>();
    let rating = rng.int(30, 49);
    while (used.has(rating)) rating = rating >= 49 ? 30 : rating + 1;
    used.add(rating);
    ratings.set(key, used);
    const priceLevel = rng.int(1, 4);
    restaurants.push({
      id,
      name,
      cuisine,
      area,
      address: `${rng.int(10, 990)} ${rng.pick(STREETS)}, ${area}, ${city}`,
      phone: `(${rng.int(201, 989)}) ${rng.int(200, 989)}-${String(rng.int(0, 9999)).padStart(4, '0')}`,
      priceLevel,
      rating: rating / 10,
      reviews: rng.int(12, 2400),
      outdoor: rng.chance(0.4),
      menu: rng.sample(c.dishes, rng.int(4, 6)).map((d) => ({ name: d, price: (rng.int(5, 12) + priceLevel * 5) * 100 + rng.pick([0, 50, 95]) })),
      rank: 0,
    });
    id += rng.int(1, 7);
  }
  rng.shuffle(restaurants).forEach((r, i) => (r.rank = i));
  return { city, restaurants };
}
