/** A long-lived table of some component, for metrics: its entries now and, where a purge policy bounds it by count, that bound. */
export interface TableSize {
  readonly name: string;
  readonly size: number;
  readonly limit?: number;
}
