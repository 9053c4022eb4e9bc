import { z } from 'zod';
import type { Result } from '../../../core/result.js';
import { err, ok } from '../../../core/result.js';
import type { FaultSettings } from '../../config/fault-settings.js';
import { faultSettingsSchema } from '../../config/fault-settings.js';

const partialFaults = faultSettingsSchema.partial();

export type FaultListener = (faults: FaultSettings) => void;

/** The fault settings in force, changeable at run time (admin endpoint, tests); listeners hear every change. */
export class FaultState {
  private settings: FaultSettings;
  private readonly listeners = new Set<FaultListener>();

  constructor(initial: FaultSettings) {
    this.settings = faultSettingsSchema.parse(initial);
  }

  get current(): FaultSettings {
    return this.settings;
  }

  /**
   * Applies a partial update after validating it; only the keys present change (the schema's
   * defaults never reset a setting that was not named). The error is zod's readable message.
   */
  update(input: unknown): Result<FaultSettings, string> {
    const parsed = partialFaults.safeParse(input);
    if (!parsed.success) return err(z.prettifyError(parsed.error));
    const named = new Set(typeof input === 'object' && input !== null ? Object.keys(input) : []);
    const changes = Object.fromEntries(Object.entries(parsed.data).filter(([key]) => named.has(key)));
    this.settings = { ...this.settings, ...changes };
    for (const listener of this.listeners) listener(this.settings);
    return ok(this.settings);
  }

  onChange(listener: FaultListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
