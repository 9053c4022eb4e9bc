import type { z } from 'zod';
import type { OrderedParams } from '../core/ordered-params.js';
import { encodeParams } from '../core/ordered-params.js';
import type { Result } from '../core/result.js';
import { err } from '../core/result.js';
import type { HttpPort, HttpReply } from '../venue/http-port.js';
import { HttpTransportError } from '../venue/http-port.js';
import { invalidRequest, VenueError } from '../venue/venue-error.js';
import { parseWire } from '../venue/wire/schema.js';
import type { SkippedRowsSink } from '../venue/wire/tolerant-list.js';
import type { CatalogEndpoint } from './endpoints.js';
import { fillCatalogPath } from './endpoints.js';
import type { CatalogJsonValue } from '../protocol/catalog/json.js';
import { writeCatalogJson } from '../protocol/catalog/json.js';
import { interpretCatalogReply } from './reply.js';

export interface CatalogRequest {
  readonly pathParams?: Readonly<Record<string, string>>;
  readonly query?: OrderedParams;
  readonly body?: CatalogJsonValue;
}

export interface CatalogTransportOptions {
  readonly baseUrl: string;
  readonly token: string;
  readonly timeoutMs: number;
  /** Records of list replies left out by the parsing rule. */
  readonly onSkipped?: SkippedRowsSink;
}

/** Sends one catalog request with the Bearer token and validates the reply envelope with `schema`. */
export class CatalogTransport {
  private readonly baseUrl: string;

  constructor(
    private readonly http: HttpPort,
    private readonly options: CatalogTransportOptions,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async call<S extends z.ZodType>(endpoint: CatalogEndpoint, request: CatalogRequest, schema: S): Promise<Result<z.output<S>, VenueError>> {
    const { label } = endpoint;
    if (this.options.token.trim() === '') return err(invalidRequest(label, 'credentials', 'no API token is configured'));
    const query = encodeParams(request.query ?? []);
    const path = fillCatalogPath(endpoint.path, request.pathParams);
    const url = `${this.baseUrl}${path}${query === '' ? '' : `?${query}`}`;
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${this.options.token}` };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = writeCatalogJson(request.body);
      headers['content-type'] = 'application/json';
    }
    let reply: HttpReply;
    try {
      reply = await this.http.send({ method: endpoint.method, url, headers, ...(body === undefined ? {} : { body }), timeoutMs: this.options.timeoutMs });
    } catch (error: unknown) {
      if (!(error instanceof HttpTransportError)) throw error;
      return err(new VenueError({ kind: 'unknown-status', endpoint: label, message: `${error.timedOut ? 'timed out' : 'network error'}: ${error.message}` }));
    }
    const outcome = interpretCatalogReply(label, reply);
    if (!outcome.ok) return outcome;
    return parseWire(schema, outcome.value, label, this.options.onSkipped);
  }
}
