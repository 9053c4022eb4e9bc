import { Prng } from '../market-stream/prng.js';

/** `traceId` header values: 32 random-looking hex digits, the same sequence for the same seed. */
export class TraceIds {
  private readonly prng: Prng;

  constructor(seed: number) {
    this.prng = new Prng(seed, 'sim-server/trace-ids');
  }

  next(): string {
    let id = '';
    for (let i = 0; i < 4; i++) id += this.prng.nextUint32().toString(16).padStart(8, '0');
    return id;
  }
}
