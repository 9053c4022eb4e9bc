/**
 * Secrets in text: the one place that knows what a secret looks like (a value under a key named like
 * one, a signature, a listen key in a stream URL, an HMAC digest) and which secret values this process
 * holds (API keys and secrets, tokens, listen keys). Log lines, error excerpts of replies and the CLI's
 * standard error all pass through `scrubSecrets`.
 */

export const REDACTED = '[redacted]';

/** Key names whose values are secrets, in JSON, query strings, forms and headers (case-insensitive). */
const SECRET_NAME = String.raw`(?:api[-_]?key|api[-_]?secret|secret[-_]?key|secret|listen[-_]?key|access[-_]?token|refresh[-_]?token|token|signature|password|passphrase|authorization|x-bb-apikey|credentials|cookie)`;

/** Field names whose values never reach a log line (pino's path redaction uses them verbatim). */
export const SECRET_FIELD_NAMES: readonly string[] = [
  'apiKey',
  'apiSecret',
  'secret',
  'token',
  'password',
  'signature',
  'listenKey',
  'authorization',
  'x-bb-apikey',
  'X-BB-APIKEY',
  'credentials',
  'cookie',
];

const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // "listenKey":"abc…" — also cut short (a truncated reply has no closing quote), and escaped inside a JSON string (\"token\":\"…).
  [new RegExp(String.raw`((\\?")${SECRET_NAME}\2\s*:\s*\\?")(?:[^"\\]|\\(?!"))*`, 'gi'), `$1${REDACTED}`],
  // listenKey=abc, signature=… (query strings, forms).
  [new RegExp(String.raw`(\b${SECRET_NAME}=)(?!\[redacted\])[^\s&"',;)}\]]+`, 'gi'), `$1${REDACTED}`],
  // An Authorization header's bearer token.
  [/(\bBearer\s+)(?!\[redacted\])[A-Za-z0-9._~+/=-]+/g, `$1${REDACTED}`],
  // A user-stream URL: its last segment is the listen key.
  [/(\/ws\/)[A-Za-z0-9%_-]{20,}/g, `$1${REDACTED}`],
  // Any HMAC-SHA256 hex digest (a request signature).
  [/\b[0-9a-fA-F]{64}\b/g, REDACTED],
];

/** Secret-shaped text becomes "[redacted]"; the rest is left as it is. */
export function redactSecretText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Shorter values are not scrubbed by value: they would match everywhere (and are no real keys). */
const MIN_SECRET_LENGTH = 8;

/** How many rotating values (listen keys) are kept: a key lives an hour, so this covers days of rotations. */
const ROTATING_KEPT = 64;

/** Environment variables whose names say they hold a secret (STRATD_API_KEY, STRATD_HEALTH_TOKEN, …). */
const SECRET_VARIABLE = /(?:^|_)(?:API_?KEY|KEY|SECRET|TOKEN|PASSWORD|PASSPHRASE|CREDENTIALS?)(?:_|$)/i;

/** The secret values this process knows: every one is scrubbed wherever it would be printed. */
export class SecretValues {
  private readonly values = new Set<string>();
  /** Rotating values (listen keys), oldest first: only the newest ROTATING_KEPT stay, the older ones are dead anyway. */
  private readonly rotating: string[] = [];
  private sorted: string[] | undefined;

  /** `rotating`: a value replaced over time (a listen key), of which only the newest few are kept. */
  add(value: string | undefined, rotating = false): void {
    const v = value?.trim();
    if (v === undefined || v.length < MIN_SECRET_LENGTH || this.values.has(v)) return;
    this.values.add(v);
    this.sorted = undefined;
    if (!rotating) return;
    this.rotating.push(v);
    if (this.rotating.length > ROTATING_KEPT) this.values.delete(this.rotating.shift() ?? '');
  }

  /** The values of variables named like secrets. */
  addEnvironment(env: Readonly<Record<string, string | undefined>>): void {
    for (const [name, value] of Object.entries(env)) if (SECRET_VARIABLE.test(name)) this.add(value);
  }

  get size(): number {
    return this.values.size;
  }

  /** Each known value (also as it appears inside a JSON string) becomes "[redacted]"; longest first. */
  scrub(text: string): string {
    if (this.values.size === 0) return text;
    this.sorted ??= [...this.values].sort((a, b) => b.length - a.length);
    let out = text;
    for (const value of this.sorted) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value && out.includes(escaped)) out = out.split(escaped).join(REDACTED);
    }
    return out;
  }
}

/** The process's secrets: filled where they are resolved (config, listen keys), read by every printer. */
export const knownSecrets = new SecretValues();

/** Known values first (a pattern could cut one in half), then secret-shaped text. */
export function scrubSecrets(text: string, extra?: SecretValues): string {
  return redactSecretText(knownSecrets.scrub(extra === undefined ? text : extra.scrub(text)));
}

/**
 * The start of a reply body as quoted in an error: cut at `max` characters, then redacted (a reply cut
 * short still has its listen key or token blanked, closing quote or not).
 */
export function replyExcerpt(body: string, max = 80): string {
  return redactSecretText(body.length <= max ? body : `${body.slice(0, max)}…`);
}
