import { dec } from '../../core/decimal.js';
import type { UserStatus } from '../../protocol/catalog/types.js';
import type { ProductDraft, UserDraft } from './records.js';

/** A seed record is created `ageDays` before the catalog's clock reads at start. */
export type SeedProduct = ProductDraft & { readonly ageDays: number };
export type SeedUser = Omit<UserDraft, 'password'> & { readonly status: UserStatus; readonly ageDays: number };

/** Records a catalog starts with, loaded in order (ids follow that order). */
export interface CatalogSeed {
  readonly products: readonly SeedProduct[];
  readonly users: readonly SeedUser[];
}

export const EMPTY_CATALOG_SEED: CatalogSeed = { products: [], users: [] };

const IMG = 'https://cdn.example.com/catalog';

/** A small shop: products across three categories and all three statuses, users across roles and statuses. */
export const SAMPLE_CATALOG_SEED: CatalogSeed = {
  products: [
    {
      name: 'Ergonomic Office Chair', sku: 'FURN-CHAIR-001', price: dec('249.99'), currency: 'USD', stock: 42, category: 'furniture', status: 'active',
      description: 'Mesh back, adjustable lumbar support and 4D armrests.', images: [`${IMG}/chair-front.jpg`, `${IMG}/chair-side.jpg`], ageDays: 120,
    },
    {
      name: 'Standing Desk Frame', sku: 'FURN-DESK-002', price: dec('399'), currency: 'USD', stock: 12, category: 'furniture', status: 'active',
      description: 'Dual-motor height-adjustable frame, 71-121 cm.', images: [`${IMG}/desk-frame.jpg`], ageDays: 95,
    },
    {
      name: 'Wireless Mechanical Keyboard', sku: 'ELEC-KB-003', price: dec('129.5'), currency: 'USD', stock: 80, category: 'electronics', status: 'active',
      description: 'Hot-swappable switches, Bluetooth and USB-C.', images: [`${IMG}/keyboard.jpg`], ageDays: 60,
    },
    {
      name: 'USB-C Docking Station', sku: 'ELEC-DOCK-004', price: dec('189'), currency: 'EUR', stock: 0, category: 'electronics', status: 'draft',
      description: 'Two 4K outputs, 100 W passthrough charging.', images: [], ageDays: 14,
    },
    {
      name: 'Noise-Cancelling Headphones (2022)', sku: 'ELEC-HP-005', price: dec('299.99'), currency: 'USD', stock: 3, category: 'electronics', status: 'archived',
      description: 'Previous generation; superseded.', images: [`${IMG}/headphones-2022.jpg`], ageDays: 400,
    },
    {
      name: 'Laptop Sleeve 14"', sku: 'ACC-SLV-006', price: dec('34.9'), currency: 'USD', stock: 150, category: 'accessories', status: 'active',
      description: 'Water-resistant felt sleeve for 13-14 inch laptops.', images: [`${IMG}/sleeve.jpg`], ageDays: 30,
    },
    {
      name: 'Cable Organizer Kit', sku: 'ACC-CBL-007', price: dec('12.75'), currency: 'GBP', stock: 500, category: 'accessories', status: 'draft',
      description: 'Velcro ties, clips and an under-desk tray.', images: [], ageDays: 2,
    },
  ],
  users: [
    { name: 'Alice Nguyen', email: 'alice.nguyen@example.com', role: 'admin', status: 'active', avatar: 'https://cdn.example.com/avatars/alice.png', ageDays: 365 },
    { name: 'Bob Martinez', email: 'bob.martinez@example.com', role: 'user', status: 'active', avatar: 'https://cdn.example.com/avatars/bob.png', ageDays: 200 },
    { name: 'Carol Smith', email: 'carol.smith@example.com', role: 'viewer', status: 'active', ageDays: 150 },
    { name: 'Dan Okafor', email: 'dan.okafor@example.com', role: 'user', status: 'inactive', ageDays: 90 },
    { name: 'Erin Kowalski', email: 'erin.kowalski@example.com', role: 'user', status: 'suspended', avatar: 'https://cdn.example.com/avatars/erin.png', ageDays: 45 },
    { name: 'Frank Li', email: 'frank.li@example.com', role: 'viewer', status: 'inactive', ageDays: 7 },
  ],
};
