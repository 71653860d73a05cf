/** Picks the wiki question for a seed and tier, and judges the agent's answer. */
import type { CheckResult, Tier } from '../../types.ts';
import { answerMatches } from '../common/normalize.ts';
import { Rng, mixSeed } from '../common/rng.ts';
import { MONTHS_LONG, generateWiki, type City, type WikiGoal, type WikiState } from './data.ts';
import type { Ctx } from './pages.ts';

const SITES = ['Wikiverse', 'OpenAtlas', 'Gazetteer', 'Knowpedia'];
const n = (x: number) => x.toLocaleString('en-US');

export function generateWikiTask(seed: number, tier: Tier): { state: WikiState; instruction: string } {
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
    const kind = rng.pick(['capital_pop', 'sister_mayor', 'compare', 'capital_rain'] as const);
    const twinned = cities.filter((c) => c.sister);
    if (kind === 'sister_mayor' && twinned.length) {
      const c = rng.pick(twinned);
      goal = { kind: 'hop', label: `mayor of ${c.sister}`, answer: city(c.sister).mayor, path: [c.name, c.sister] };
      instruction = ask(`Who is the mayor of the town twinned with ${c.name}?`);
    } else if (kind === 'compare') {
      const three = rng.sample(cities, 3);
      const first = [...three].sort((x, y) => x.founded - y.founded)[0];
      goal = { kind: 'compare', label: 'the city founded first', answer: first.name, path: three.map((x) => x.name) };
      instruction = ask(`Which was founded first: ${three[0].name}, ${three[1].name} or ${three[2].name}?`);
    } else if (kind === 'capital_rain') {
      const c = rng.pick(countries);
      const m = rng.int(0, 11);
      goal = { kind: 'hop', label: `${MONTHS_LONG[m]} rainfall in ${c.capital}`, answer: String(city(c.capital).rain[m]), path: [c.name, c.capital] };
      instruction = ask(`How much rain, in mm, falls on average in ${MONTHS_LONG[m]} in the capital of ${c.name}?`);
    } else {
      const c = rng.pick(countries);
      goal = { kind: 'hop', label: `population of ${c.capital}`, answer: n(city(c.capital).population), path: [c.name, c.capital] };
      instruction = ask(`What is the population of the capital of ${c.name}?`);
    }
  } else {
    const c = rng.pick(countries);
    const cs = c.cities.map(city);
    const metric = rng.pick(['population', 'founded', 'july'] as const);
    const best: City =
      metric === 'population' ? [...cs].sort((a, b) => b.population - a.population)[0] : metric === 'founded' ? [...cs].sort((a, b) => a.founded - b.founded)[0] : [...cs].sort((a, b) => b.high[6] - a.high[6])[0];
    const what = metric === 'population' ? 'has the largest population' : metric === 'founded' ? 'is the oldest (founded earliest)' : 'has the highest average high temperature in July';
    goal = { kind: 'superlative', label: `the city of ${c.name} that ${what}`, answer: best.name, path: [c.name, ...c.cities] };
    instruction = ask(`Which city of ${c.name} ${what}?`);
  }
  return { state: { siteName: rng.pick(SITES), countries, cities, goal }, instruction };
}

export function checkWiki(ctx: Ctx): CheckResult {
  const g = ctx.state.goal;
  const kp = [
    { name: 'answer sent', met: ctx.agentMessages.length > 0 },
    { name: `correct ${g.label}`, met: ctx.agentMessages.some((m) => answerMatches(g.answer, m)), ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) },
  ];
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
