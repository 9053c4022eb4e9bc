import { isLoopbackHost } from '../core/loopback.js';

/**
 * Why a URL may not carry credentials in live mode: `http://` and `ws://` to a host that is not this
 * machine send the API key header, the catalog's bearer token and the listen key in clear. Undefined
 * when the URL is fine (TLS, loopback, or a host the operator listed in `plainTextHosts`).
 */
export function plainTextToRemote(url: string, plainTextHosts: readonly string[] = []): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const plain = parsed.protocol === 'http:' || parsed.protocol === 'ws:';
  if (!plain || isLoopbackHost(parsed.hostname)) return undefined;
  if (plainTextHosts.some((host) => host.toLowerCase() === parsed.hostname.toLowerCase())) return undefined;
  const secure = parsed.protocol === 'http:' ? 'https' : 'wss';
  return `${url}: live mode sends credentials only over TLS to a host other than this machine: use ${secure}:// (or list the host in exchange.plainTextHosts, for a simulator on a private network)`;
}
