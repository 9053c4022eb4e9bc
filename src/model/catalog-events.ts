/** Catalog sync (document 002): what changed in the mirror after a run. */
export interface CatalogChanged {
  readonly type: 'catalog.changed';
  readonly time: number;
  readonly entity: 'product' | 'user';
  readonly change: 'created' | 'updated' | 'deleted';
  readonly id: string;
}

export interface CatalogSynced {
  readonly type: 'catalog.synced';
  readonly time: number;
  readonly products: number;
  readonly users: number;
  readonly created: number;
  readonly updated: number;
  readonly deleted: number;
}

export type CatalogEvent = CatalogChanged | CatalogSynced;
