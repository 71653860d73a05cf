/** Picks the wiki question for a seed and tier, and judges the agent's answer. */
import type { CheckResult, GoalKind, Tier } from '../../types.ts';
import { answerMatches } from '../../../common/normalize.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { MONTHS_LONG, generateWiki, type City, type WikiGoal, type WikiState } from './data.ts';
import type { Ctx } from './pages.ts';

const SITES = ['Wikiverse', 'OpenAtlas', 'Gazetteer', 'Knowpedia'];
const n = (x: number) => x.toLocaleString('en-US');

export function generateWikiTask(seed: number, tier: Tier): { state: WikiState; instruction: string; goalKind: GoalKind } {
  const { countries, cities } = generateWiki(seed);
  const rng = new Rng(mixSeed(seed, 'wiki-task', tier));
  const city = (name: string) => cities.find((c) => c.name === name)!;
  let goal: WikiGoal;
  let instruction: string;
  const ask = (q: string) => `${q} Use the wiki and tell me the answer in a message.`;
  if (tier === 1) {
    if (rng.chance(0.7)) {
      const c = rng.pick(cities);
      const facts: Array<[string, string, string]> = [
        [`population of ${c.name}`, n(c.population), `What is the population of ${c.name}?`],
        [`mayor of ${c.name}`, c.mayor, `Who is the mayor of ${c.name}?`],
        [`founding year of ${c.name}`, String(c.founded), `In which year was ${c.name} founded?`],
        [`river of ${c.name}`, c.river, `Which river does ${c.name} lie on?`],
        [`elevation of ${c.name}`, String(c.elevation), `What is the elevation of ${c.name}, in metres?`],
      ];
      const [label, answer, q] = rng.pick(facts);
      goal = { kind: 'fact', label, answer, path: [c.name] };
      instruction = ask(q);
    } else {
      const c = rng.pick(countries);
      const facts: Array<[string, string, string]> = [
        [`capital of ${c.name}`, c.capital, `What is the capital of ${c.name}?`],
        [`official language of ${c.name}`, c.language, `What is the official language of ${c.name}?`],
        [`currency of ${c.name}`, c.currency, `What is the currency of ${c.name}?`],
      ];
      const [label, answer, q] = rng.pick(facts);
      goal = { kind: 'fact', label, answer, path: [c.name] };
      instruction = ask(q);
    }
  } else if (tier === 2) {
    // Two articles reached by search, each with a hop or a comparison: 6-8 steps.
    const kind = rng.pick(['compare', 'capitals_pop', 'capitals_rain'] as const);
    if (kind === 'compare') {
      const three = rng.sample(cities, 3);
      const first = [...three].sort((x, y) => x.founded - y.founded)[0];
      goal = { kind: 'compare', label: 'the city founded first', answer: first.name, path: three.map((x) => x.name) };
      instruction = ask(`Which was founded first: ${three[0].name}, ${three[1].name} or ${three[2].name}?`);
    } else {
      const [a, b] = rng.sample(countries, 2);
      const ca = city(a.capital);
      const cb = city(b.capital);
      const path = [a.name, a.capital, b.name, b.capital];
      if (kind === 'capitals_pop') {
        const bigger = ca.population > cb.population ? ca : cb;
        goal = { kind: 'hop', label: `the more populous of the capitals of ${a.name} and ${b.name}`, answer: bigger.name, path };
        instruction = ask(`Which has more inhabitants: the capital of ${a.name} or the capital of ${b.name}? Name the city.`);
      } else {
        const m = rng.int(0, 11);
        goal = { kind: 'hop', label: `${MONTHS_LONG[m]} rainfall in ${a.capital} and ${b.capital} together`, answer: String(ca.rain[m] + cb.rain[m]), path };
        instruction = ask(`How much rain, in mm, falls on average in ${MONTHS_LONG[m]} in the capitals of ${a.name} and ${b.name} together?`);
      }
    }
  } else {
    // A superlative over every city of a country, then one hop from the winner to its twin town: 11-16 steps.
    const options = countries.flatMap((c) => (['population', 'founded', 'july'] as const).map((metric) => ({ c, metric })));
    const bestOf = (c: (typeof countries)[number], metric: 'population' | 'founded' | 'july'): City => {
      const cs = c.cities.map(city);
      return metric === 'population' ? [...cs].sort((a, b) => b.population - a.population)[0] : metric === 'founded' ? [...cs].sort((a, b) => a.founded - b.founded)[0] : [...cs].sort((a, b) => b.high[6] - a.high[6])[0];
    };
    const twinned = options.filter((o) => bestOf(o.c, o.metric).sister);
    const { c, metric } = rng.pick(twinned.length ? twinned : options);
    const best = bestOf(c, metric);
    const what = metric === 'population' ? 'has the largest population' : metric === 'founded' ? 'is the oldest (founded earliest)' : 'has the highest average high temperature in July';
    if (best.sister) {
      goal = { kind: 'superlative', label: `mayor of the town twinned with the city of ${c.name} that ${what}`, answer: city(best.sister).mayor, path: [c.name, ...c.cities, best.name, best.sister] };
      instruction = ask(`Find the city of ${c.name} that ${what}. Who is the mayor of the town it is twinned with?`);
    } else {
      goal = { kind: 'superlative', label: `mayor of the city of ${c.name} that ${what}`, answer: best.mayor, path: [c.name, ...c.cities, best.name] };
      instruction = ask(`Who is the mayor of the city of ${c.name} that ${what}?`);
    }
  }
  return { state: { siteName: rng.pick(SITES), countries, cities, goal }, instruction, goalKind: 'answer' };
}

export function checkWiki(ctx: Ctx): CheckResult {
  const g = ctx.state.goal;
  const kp = [
    { name: 'answer sent', met: ctx.agentMessages.length > 0 },
    { name: `correct ${g.label}`, met: ctx.agentMessages.some((m) => answerMatches(g.answer, m)), ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) },
  ];
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
