/**
 * ALLOWED_ORIGINS as written by the operator: exact origins (`https://app.example.com`,
 * `http://localhost:8081`), comma-separated. Throws with a sentence naming what is wrong.
 */
export function parseAllowedOrigins(raw: string): string[] {
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  if (origins.length === 0) throw new Error('ALLOWED_ORIGINS is a comma-separated list of origins such as https://app.example.com');
  for (const origin of origins) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin)
      throw new Error(
        `ALLOWED_ORIGINS: "${origin}" is not an exact origin: write scheme://host[:port] in lower case, without a path or a trailing slash (e.g. https://app.example.com)`,
      );
  }
  return origins;
}
