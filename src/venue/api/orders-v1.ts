import type { RestTransport } from '../rest-transport.js';

/** TODO(helper): endpoint methods of this group. */
export class OrdersV1Api {
  constructor(private readonly rest: RestTransport) {}

  get transport(): RestTransport {
    return this.rest;
  }
}
