// A small seeded pseudo-random generator (sfc32 over a string hash), so the sandbox's data is the
// same on every machine for the same seed. Not for anything secret: tokens use node:crypto.

/** FNV-1a over the UTF-16 code units, then a final avalanche so near-equal strings spread apart. */
function hashString(text: string, salt = 0): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return avalanche(h);
}

function avalanche(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    this.a = hashString(seed, 0x9e3779b9);
    this.b = hashString(seed, 0x85ebca6b);
    this.c = hashString(seed, 0xc2b2ae35);
    this.d = hashString(seed, 0x27d4eb2f);
    // The first outputs of sfc32 still echo the seed words; discard them.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** The next 32-bit unsigned integer (sfc32: a 32-bit small fast chaotic generator). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.float();
  }

  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  /** Roughly bell-shaped noise in [-1, 1] (mean of three uniforms), for day-to-day wobble. */
  wobble(): number {
    return (this.float() + this.float() + this.float()) / 1.5 - 1;
  }

  /** `length` lowercase hex digits, eight per draw. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.next().toString(16).padStart(8, '0');
    return out.slice(0, length);
  }
}
