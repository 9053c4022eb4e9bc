import { isLoopbackHost } from '../../core/loopback.js';
import { systemTime } from '../../core/system-time.js';
import { SimulatedExchange } from '../../sim/simulated-exchange.js';
import type { SimulatedExchangeInfo } from '../../sim/simulated-exchange.js';
import { loadSimConfig } from './sim-config-file.js';
import type { SimFlags } from './sim-config-file.js';

export { loadSimConfig } from './sim-config-file.js';
export type { SimFlags } from './sim-config-file.js';

/**
 * The warning `stratd sim` prints when it listens beyond loopback: its keys, secrets and admin token
 * are published in its config, so anyone who reaches the port can trade its accounts and set its faults.
 */
export function exposureWarning(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return (
    `stratd sim: WARNING: listening on ${host}, beyond loopback: anyone who can reach this machine can trade the simulator's accounts ` +
    'with the keys of its config, and read its metrics and set its faults with the admin token (sent in clear). Bind 127.0.0.1 unless a private network needs it.\n'
  );
}

/** `stratd sim`: runs the simulated exchange until SIGINT or SIGTERM; warnings go to `warn` (stderr). */
export async function runSim(flags: SimFlags, write: (text: string) => void, warn: (text: string) => void = (text) => process.stderr.write(text)): Promise<void> {
  const config = loadSimConfig(flags);
  if (!config.ok) throw config.error;
  const exposed = exposureWarning(config.value.host);
  if (exposed !== undefined) warn(exposed);
  const sim = await SimulatedExchange.start({
    config: config.value,
    time: systemTime,
    onHandlerError: (error, route) => process.stderr.write(`stratd sim: handler of ${route} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
  const info = sim.address;
  write(flags.json === true ? `${JSON.stringify(info)}\n` : describe(info));
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sim.stop();
}

function describe(info: SimulatedExchangeInfo): string {
  const lines = [
    `stratd sim: simulated exchange listening (seed ${info.seed}; ${info.symbols.join(', ')})`,
    `  REST        ${info.baseUrl}`,
    `  user stream ${info.streamUrl}/api/v1/ws/<listenKey>`,
    `  catalog     ${info.catalogUrl}   (Authorization: Bearer ${info.catalogToken})`,
    `  admin       ${info.baseUrl}/admin/faults   (Authorization: Bearer ${info.adminToken}); metrics at ${info.baseUrl}/metrics`,
    '  accounts:',
    ...info.accounts.map((a) => `    ${a.name.padEnd(13)} user ${a.userId}${a.readOnly ? ' read-only' : ''}${a.accountType === 'COPY_TRADING' ? ' copy-trading' : ''}  key ${a.apiKey}  secret ${a.secret}`),
    'Stop with Ctrl-C.',
  ];
  return `${lines.join('\n')}\n`;
}
