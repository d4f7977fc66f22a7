/**
 * Canonical JSON (RFC 8785, JCS, for the values records hold: strings, integers, booleans, null,
 * arrays, objects): object keys sorted by UTF-16 code units, no whitespace, JSON.stringify's
 * string escapes; keys whose value is undefined are left out, as JSON.stringify does. A database
 * or an editor may reorder keys; this text stays the same.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    if (obj[key] !== undefined) parts.push(`${JSON.stringify(key)}:${canonicalJson(obj[key])}`);
  }
  return `{${parts.join(',')}}`;
}
