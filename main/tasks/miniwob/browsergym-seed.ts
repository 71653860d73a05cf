/**
 * The page seed BrowserGym gives a MiniWoB++ task for an episode seed, so that `miniwob.<task>`
 * at seed N here is the same instance as BrowserGym's `browsergym/miniwob.<task>` reset with
 * seed=N.
 *
 * BrowserGym's MiniWoB++ task keeps `numpy.random.RandomState(N)` and seeds the page with
 * `Math.seedrandom(<its randint(0, 1000000)>)`, the number written into the script (seedrandom
 * reads a number differently from its string, so the page must get a number too). numpy's legacy
 * RandomState is MT19937 seeded by init_genrand(N); randint(0, 1000000) draws 32-bit outputs, keeps
 * their low 20 bits (the smallest mask covering 999,999) and rejects values above 999,999.
 */

const N = 624;
const M = 397;

/** MT19937 (Matsumoto and Nishimura), 32-bit outputs, seeded like numpy's RandomState(int). */
class Mt19937 {
  private readonly mt = new Uint32Array(N);
  private index = N;

  constructor(seed: number) {
    this.mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = this.mt[i - 1] ^ (this.mt[i - 1] >>> 30);
      this.mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
  }

  next(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  private twist(): void {
    const mt = this.mt;
    for (let i = 0; i < N; i++) {
      const y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7fffffff);
      mt[i] = mt[(i + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.index = 0;
  }
}

/** numpy.random.RandomState(seed).randint(0, 1000000): the page seed BrowserGym uses for episode seed `seed`. */
export function browsergymPageSeed(seed: number): number {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`a BrowserGym seed is a whole number from 0 to 2^32-1, got ${seed}`);
  const rng = new Mt19937(seed);
  const high = 999_999;
  const mask = 0xfffff; // the smallest 2^k - 1 that covers 999,999
  for (;;) {
    const v = rng.next() & mask;
    if (v <= high) return v;
  }
}
