import { knownSecrets, scrubSecrets } from '../../core/secret-text.js';

/**
 * The CLI's standard error, scrubbed: every text written to it (command errors, commander's messages,
 * a failure's stack) passes through the same scrubber as the log lines, so no secret the process knows
 * (API key and secret, catalog and control tokens, listen keys) nor any secret-shaped text reaches it.
 */
export function installScrubbedStderr(env: Readonly<Record<string, string | undefined>>, stream: NodeJS.WriteStream = process.stderr): void {
  knownSecrets.addEnvironment(env);
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const scrubbed = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (typeof chunk === 'string') return write(scrubSecrets(chunk), ...rest);
    if (chunk instanceof Uint8Array) return write(scrubSecrets(Buffer.from(chunk).toString('utf8')), ...rest);
    return write(chunk, ...rest);
  };
  stream.write = scrubbed as NodeJS.WriteStream['write'];
}

/** An unexpected failure as the CLI prints it: its stack (or message), scrubbed like everything on stderr. */
export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return `stratd: ${scrubSecrets(text)}\n`;
}
