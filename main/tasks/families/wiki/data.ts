/** Wiki data: invented countries and cities with infobox facts, history, climate tables and sister cities. */
import { Rng, mixSeed } from '../../../common/rng.ts';

export const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const MONTHS_LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SYL = ['ba', 'ka', 'lo', 'mer', 'an', 'tal', 'vi', 'do', 'ren', 'sa', 'gor', 'el', 'ni', 'pra', 'tu', 'mo', 'zel', 'ha', 'ri', 'os', 'len', 'qua', 'dar', 'fen', 'lu', 'ves', 'tor', 'ca'];
const CITY_SUFFIX = ['', '', 'ia', 'ford', 'burg', 'port', 'ville', 'mouth', 'grad', 'stad'];
const FIRST = ['Anna', 'Tomas', 'Lidia', 'Emil', 'Rosa', 'Jonas', 'Vera', 'Pavel', 'Ines', 'Marek', 'Olga', 'Stefan', 'Nina', 'Hugo', 'Clara', 'Bruno'];
const LAST = ['Varga', 'Lindholm', 'Ostrova', 'Becker', 'Moreau', 'Halvorsen', 'Kral', 'Duarte', 'Novak', 'Ferreira', 'Sandoval', 'Petrakis'];
const INDUSTRIES = ['shipbuilding', 'textiles', 'tourism', 'software', 'wine making', 'fishing', 'mining', 'banking', 'publishing', 'glassworks', 'agriculture', 'logistics'];
const CURRENCIES = ['crown', 'mark', 'florin', 'dinar', 'thaler', 'lira'];
const LANGUAGES = ['Velish', 'Tarnic', 'Ostrian', 'Meridan', 'Caldic', 'Sorvan'];

export interface City {
  slug: string;
  name: string;
  country: string;
  population: number;
  founded: number;
  elevation: number;
  mayor: string;
  river: string;
  industries: string[];
  /** °C highs and lows, rainfall in mm, per month. */
  high: number[];
  low: number[];
  rain: number[];
  sister: string;
}

export interface Country {
  slug: string;
  name: string;
  capital: string;
  area: number;
  currency: string;
  language: string;
  cities: string[];
}

export interface WikiGoal {
  /** What is asked, for the checker's key point ("population of Velport"). */
  label: string;
  answer: string;
  /** Articles an oracle visits, in order, before answering. */
  path: string[];
  /** How the oracle reaches the first article: the search box. */
  kind: 'fact' | 'hop' | 'compare' | 'superlative';
}

export interface WikiState {
  siteName: string;
  countries: Country[];
  cities: City[];
  goal: WikiGoal;
}

export function slugify(name: string): string {
  return name.replace(/\s+/g, '_');
}

function word(rng: Rng, n: number): string {
  const w = Array.from({ length: n }, () => rng.pick(SYL)).join('');
  return w[0].toUpperCase() + w.slice(1);
}

export function generateWiki(seed: number): { countries: Country[]; cities: City[] } {
  const rng = new Rng(mixSeed(seed, 'wiki-data'));
  const used = new Set<string>();
  const unique = (make: () => string) => {
    let n = make();
    while (used.has(n.toLowerCase())) n = make();
    used.add(n.toLowerCase());
    return n;
  };
  const countries: Country[] = [];
  const cities: City[] = [];
  const pops = new Set<number>();
  const nCountries = rng.int(4, 5);
  for (let c = 0; c < nCountries; c++) {
    const name = unique(() => word(rng, rng.int(2, 3)));
    const n = rng.int(4, 5);
    const names: string[] = [];
    const founded = new Set<number>();
    const julys = new Set<number>();
    const base = rng.int(-4, 12);
    for (let k = 0; k < n; k++) {
      const cname = unique(() => word(rng, 2) + rng.pick(CITY_SUFFIX));
      names.push(cname);
      let pop = rng.int(12, 2400) * 1000 + rng.int(0, 999);
      while (pops.has(pop)) pop++;
      pops.add(pop);
      let year = rng.int(820, 1890);
      while (founded.has(year)) year++;
      founded.add(year);
      // Seasons: a smooth curve per city; every month's high is distinct across the country's cities.
      const warm = base + rng.int(0, 9);
      const high = MONTHS_SHORT.map((_, i) => Math.round(warm + 12 * Math.sin(((i - 3) / 12) * 2 * Math.PI) + rng.int(-1, 1)));
      while (julys.has(high[6])) high[6]++;
      julys.add(high[6]);
      cities.push({
        slug: slugify(cname),
        name: cname,
        country: name,
        population: pop,
        founded: year,
        elevation: rng.int(2, 1400),
        mayor: `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
        river: `${word(rng, 2)} River`,
        industries: rng.sample(INDUSTRIES, 3),
        high,
        low: high.map((h) => h - rng.int(6, 11)),
        rain: MONTHS_SHORT.map(() => rng.int(8, 160)),
        sister: '',
      });
    }
    countries.push({ slug: slugify(name), name, capital: rng.pick(names), area: rng.int(20, 600) * 1000, currency: `${name.slice(0, 4)} ${rng.pick(CURRENCIES)}`, language: rng.pick(LANGUAGES), cities: names });
  }
  // Sister cities pair across countries.
  const order = rng.shuffle(cities);
  for (let i = 0; i + 1 < order.length; i += 2) {
    if (order[i].country === order[i + 1].country) continue;
    order[i].sister = order[i + 1].name;
    order[i + 1].sister = order[i].name;
  }
  return { countries, cities };
}
