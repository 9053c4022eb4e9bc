/** One HTTP exchange as the catalog router sees it; the simulator's server does the socket work. */
export interface CatalogHttpRequest {
  readonly method: string;
  /** Relative to the catalog base URL and still percent-encoded, e.g. "/v1/products/prd_000001". */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names in any case (node gives lower case). */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface CatalogHttpReply {
  readonly status: number;
  readonly body: string;
  readonly headers?: Record<string, string>;
}

/** Where the simulator's HTTP server mounts the catalog: base URL `http://host:port/catalog`. */
export const CATALOG_PATH_PREFIX = '/catalog';
