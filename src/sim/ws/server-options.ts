import type { Registry } from 'prom-client';
import type { TimeSource } from '../../core/clock.js';
import type { FaultSettings } from '../config/fault-settings.js';
import type { ConnectionLimits } from './sim-socket.js';

/** What every simulated socket server takes beside its own data sources. */
export interface SimSocketServerOptions {
  readonly time: TimeSource;
  /** Read per delivery: the socket kind's fault rates. */
  readonly faults: () => FaultSettings;
  /** Run-time fault changes (the admin endpoint): the periodic drop fault arms or disarms open sockets at once. */
  readonly onFaultsChanged?: (listener: (faults: FaultSettings) => void) => () => void;
  /** Seeds the socket kind's fault draws. */
  readonly seed: number;
  readonly metrics: Registry;
  readonly limits?: Partial<ConnectionLimits>;
}
