// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const { imul, log, sqrt, pow, floor } = Math;

/**
 * A small seedable PRNG: xoshiro128** (Blackman & Vigna) seeded through splitmix32. Streams are
 * named, so each consumer (a symbol's price path, its trades, its book) draws from its own sequence
 * and adding one consumer does not shift the numbers another one sees.
 */
export class Prng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spareNormal: number | undefined;

  /** `seed` is any safe integer; `stream` names an independent sequence for that seed. */
  constructor(seed: number, stream = '') {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
    let x = (fnv1a(stream) ^ (seed >>> 0) ^ imul(floor(seed / 0x1_0000_0000) | 0, 0x9e3779b1)) >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = imul(z ^ (z >>> 16), 0x85ebca6b);
      z = imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const result = imul(rotl(imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return this.nextUint32() / 0x1_0000_0000;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + floor(this.uniform() * (max - min + 1));
  }

  /** Standard normal (Marsaglia polar method). */
  normal(): number {
    const spare = this.spareNormal;
    if (spare !== undefined) {
      this.spareNormal = undefined;
      return spare;
    }
    for (;;) {
      const u = 2 * this.uniform() - 1;
      const v = 2 * this.uniform() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const factor = sqrt((-2 * log(s)) / s);
        this.spareNormal = v * factor;
        return u * factor;
      }
    }
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -log(1 - this.uniform()) * mean;
  }

  /** Pareto with scale `min` and tail index `alpha` (heavier tail for smaller alpha). */
  pareto(min: number, alpha: number): number {
    return min * pow(1 - this.uniform(), -1 / alpha);
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
