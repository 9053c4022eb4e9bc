/** API key and secret of one exchange account. Never logged (see the logger's redact paths). */
export interface ApiCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}
