import { Prng } from '../market-stream/prng.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 64;

/** Random-looking 64-letter listen keys like the live ones (API-NOTES §7), reproducible for a seed. */
export class ListenKeyText {
  private readonly prng: Prng;

  constructor(seed: number) {
    this.prng = new Prng(seed, 'listen-keys');
  }

  next(): string {
    let text = '';
    for (let i = 0; i < LENGTH; i++) text += LETTERS.charAt(this.prng.int(0, LETTERS.length - 1));
    return text;
  }
}
