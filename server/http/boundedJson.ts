/** Nesting and key caps for a matchmaking body: join options are one flat object. */
export const MAX_JSON_DEPTH = 4;
export const MAX_JSON_KEYS = 64;

export type BoundedJson = { ok: true; value: unknown } | { ok: false; tooBig: boolean };

/**
 * JSON.parse of an already size-bounded text, then refused when it nests deeper than
 * MAX_JSON_DEPTH or holds more than MAX_JSON_KEYS keys and elements in all.
 */
export function parseBoundedJson(text: string): BoundedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, tooBig: false };
  }
  let budget = MAX_JSON_KEYS;
  const walk = (node: unknown, depth: number): boolean => {
    if (typeof node !== 'object' || node === null) return true;
    if (depth >= MAX_JSON_DEPTH) return false;
    const children = Array.isArray(node) ? node : Object.values(node);
    budget -= children.length;
    if (budget < 0) return false;
    return children.every((child) => walk(child, depth + 1));
  };
  return walk(value, 0) ? { ok: true, value } : { ok: false, tooBig: true };
}
