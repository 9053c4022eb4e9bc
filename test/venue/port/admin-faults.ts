import type { FaultSettingsInput } from '../../../src/sim/config/fault-settings.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';

/** Changes the running simulator's faults through its admin endpoint (loopback). */
export async function setFaults(s: RunningSim, faults: FaultSettingsInput): Promise<void> {
  const reply = await fetch(`${s.sim.address.baseUrl}/admin/faults`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${s.config.admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (reply.status !== 200) throw new Error(`PUT /admin/faults answered ${reply.status}: ${await reply.text()}`);
}

/** A counter of the simulator's /metrics: requests of one route, any status. */
export async function requestCount(s: RunningSim, route: string): Promise<number> {
  const text = await (await fetch(`${s.sim.address.baseUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`stratd_sim_requests_total{route="${route}"`)) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}
