/** The eleven catalog endpoints (spec 002): method, path template and the label errors carry. */
export interface CatalogEndpoint {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** "GET /v1/products/{product_id}" */
  readonly label: string;
}

function ep(method: CatalogEndpoint['method'], path: string): CatalogEndpoint {
  return { method, path, label: `${method} ${path}` };
}

export const CATALOG_ENDPOINTS = {
  listProducts: ep('GET', '/v1/products'),
  getProduct: ep('GET', '/v1/products/{product_id}'),
  createProduct: ep('POST', '/v1/products'),
  updateProduct: ep('PATCH', '/v1/products/{product_id}'),
  deleteProduct: ep('DELETE', '/v1/products/{product_id}'),
  bulkUpdateStock: ep('POST', '/v1/products/bulk/stock'),
  listUsers: ep('GET', '/v1/users'),
  getUser: ep('GET', '/v1/users/{user_id}'),
  createUser: ep('POST', '/v1/users'),
  updateUser: ep('PATCH', '/v1/users/{user_id}'),
  deleteUser: ep('DELETE', '/v1/users/{user_id}'),
} as const satisfies Record<string, CatalogEndpoint>;

/** Fills `{name}` placeholders, percent-encoding each value. */
export function fillCatalogPath(path: string, params: Readonly<Record<string, string>> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new RangeError(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}
