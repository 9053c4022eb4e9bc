import type { RestTransport } from '../rest-transport.js';

/** TODO(helper): endpoint methods of this group. */
export class UserStreamApi {
  constructor(private readonly rest: RestTransport) {}

  get transport(): RestTransport {
    return this.rest;
  }
}
