import { endpointLabel } from '../../../protocol/endpoints.js';
import type { SimRoute } from './types.js';

export interface RouteMatch {
  readonly route: SimRoute;
  readonly pathParams: Readonly<Record<string, string>>;
}

interface TemplateRoute {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly route: SimRoute;
}

/** Routes keyed by method and path; paths may hold `{name}` segments (`/leaders/{leaderUserId}`). */
export class RouteTable {
  private readonly exact = new Map<string, SimRoute>();
  private readonly templates: TemplateRoute[] = [];
  private readonly labels = new Set<string>();

  add(route: SimRoute): void {
    const { method, path } = route.endpoint;
    const label = endpointLabel(route.endpoint);
    if (this.labels.has(label)) throw new RangeError(`route ${label} is mounted twice`);
    this.labels.add(label);
    if (!path.includes('{')) {
      this.exact.set(label, route);
      return;
    }
    const names: string[] = [];
    const source = path
      .split(/(\{\w+\})/)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        if (name === undefined) return escapeRegExp(part);
        names.push(name);
        return '([^/]+)';
      })
      .join('');
    this.templates.push({ method, pattern: new RegExp(`^${source}$`), names, route });
  }

  /** The route for a method and a still-encoded path; path parameters come back decoded. */
  match(method: string, path: string): RouteMatch | undefined {
    const exact = this.exact.get(`${method} ${path}`);
    if (exact !== undefined) return { route: exact, pathParams: {} };
    for (const template of this.templates) {
      if (template.method !== method) continue;
      const found = template.pattern.exec(path);
      if (found === null) continue;
      const pathParams: Record<string, string> = {};
      let decodable = true;
      template.names.forEach((name, i) => {
        const value = decodeSegment(found[i + 1] ?? '');
        if (value === undefined) decodable = false;
        else pathParams[name] = value;
      });
      if (decodable) return { route: template.route, pathParams };
    }
    return undefined;
  }
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
