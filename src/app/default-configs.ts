import { packageFile } from './package-files.js';

/** The default sim config shipped with the package (config/sim.yml), found from this file's location. */
export const DEFAULT_SIM_CONFIG = packageFile('config/sim.yml');
