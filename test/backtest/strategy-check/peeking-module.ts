import { peekingDefinition } from './peeking-strategy.js';

/** A strategy module a config can name (`module: <path of this file>`): trades on the next kline, read through module memory. */
export default peekingDefinition({ leaky: true, peek: 'intent' });
