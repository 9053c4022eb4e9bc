import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Tests that drive a Debian tool (systemd-notify, systemd-analyze, python3) run where it is installed,
 * as in CI, whose .ci/run installs them; on a machine with Node and npm only they are skipped, and
 * their names say which tool was missing.
 */
function onPath(command: string): boolean {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

export function missingTools(tools: readonly string[]): string[] {
  return tools.filter((tool) => !onPath(tool));
}

/** `describe` when every tool is installed, else `describe.skip` with the missing tools in its name. */
export function describeWithTools(tools: readonly string[], name: string, body: () => void): void {
  const missing = missingTools(tools);
  if (missing.length === 0) describe(name, body);
  else describe.skip(`${name} [skipped: ${missing.join(', ')} not installed]`, body);
}

/** `it` when every tool is installed, else `it.skip` with the missing tools in its name. */
export function itWithTools(tools: readonly string[], name: string, body: () => Promise<unknown>, timeoutMs?: number): void {
  const missing = missingTools(tools);
  if (missing.length === 0) it(name, body, timeoutMs);
  else it.skip(`${name} [skipped: ${missing.join(', ')} not installed]`, body, timeoutMs);
}
