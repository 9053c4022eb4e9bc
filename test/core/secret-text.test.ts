import { redactSecretText, REDACTED, SecretValues } from '../../src/core/secret-text.js';

/** Secret-shaped text and known secret values are redacted; the text around them stays readable. */
const LISTEN_KEY = 'zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu';

describe('redactSecretText', () => {
  it('a truncated listen-key reply (no closing quote, no closing brace)', () => {
    expect(redactSecretText(`reply is not JSON ({"listenKey":"${LISTEN_KEY.slice(0, 50)}`)).toBe(`reply is not JSON ({"listenKey":"${REDACTED}`);
  });

  it('values under secret-named keys in JSON, also escaped inside a JSON string; other keys stay', () => {
    expect(redactSecretText('{"token":"t-123456789","apiKeyFile":"/run/secrets/key","symbol":"BTC"}')).toBe(`{"token":"${REDACTED}","apiKeyFile":"/run/secrets/key","symbol":"BTC"}`);
    expect(redactSecretText(`{"err":"reply ({\\"listenKey\\":\\"${LISTEN_KEY}\\"})"}`)).toBe(`{"err":"reply ({\\"listenKey\\":\\"${REDACTED}\\"})"}`);
    expect(redactSecretText('{"ApiSecret" : "s3cr3t-value", "X-BB-APIKEY":"k-1234567"}')).toBe(`{"ApiSecret" : "${REDACTED}", "X-BB-APIKEY":"${REDACTED}"}`);
  });

  it('query strings and forms, bearer tokens, stream URLs, HMAC digests', () => {
    expect(redactSecretText('GET /api/v1/x?symbol=BTC&signature=ab12&listenKey=zz9 HTTP')).toBe(`GET /api/v1/x?symbol=BTC&signature=${REDACTED}&listenKey=${REDACTED} HTTP`);
    expect(redactSecretText('authorization: Bearer abc.DEF-123')).toBe(`authorization: Bearer ${REDACTED}`);
    expect(redactSecretText(`wss://h/api/v1/ws/${LISTEN_KEY}`)).toBe(`wss://h/api/v1/ws/${REDACTED}`);
    expect(redactSecretText(`sig ${'a1'.repeat(32)} end`)).toBe(`sig ${REDACTED} end`);
  });

  it('leaves advice about secrets alone', () => {
    const advice = 'secrets are never read from the YAML body: write apiKey: ${SOME_VARIABLE} and set that environment variable, or name a file with apiKeyFile';
    expect(redactSecretText(advice)).toBe(advice);
  });
});

describe('SecretValues', () => {
  it('scrubs every known value, also JSON-escaped; ignores short values; takes variables named like secrets', () => {
    const values = new SecretValues();
    values.add('key"with-quote');
    values.add('short');
    values.addEnvironment({ STRATD_API_KEY: 'the-api-key-value', STRATD_HEALTH_TOKEN: 'the-health-token', HOME: '/home/someone-long' });
    expect(values.size).toBe(3);
    expect(values.scrub('a the-api-key-value b the-health-token c /home/someone-long short')).toBe(`a ${REDACTED} b ${REDACTED} c /home/someone-long short`);
    expect(values.scrub(JSON.stringify({ v: 'key"with-quote' }))).toBe(`{"v":"${REDACTED}"}`);
  });
});
