import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export interface ImportEdge {
  to: string;
  typeOnly: boolean;
}

/** Every .ts file under `dir` (relative to the repository), recursively. */
export function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const name of readdirSync(abs)) {
      const file = path.join(abs, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path.relative(ROOT, file));
    }
  };
  walk(path.join(ROOT, dir));
  return out.sort();
}

/**
 * The static imports and re-exports of one file: relative ones resolved to repository paths,
 * bare ones (packages) as written. `import type` and `export type` are marked type-only.
 */
export function importsOf(file: string): ImportEdge[] {
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const [statement, spec] of source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gms))
    found.push({ spec, typeOnly: /^(?:import|export)\s+type\s/.test(statement) });
  // An import for its side effects only, and a dynamic one, bind the modules just the same.
  for (const [, spec] of source.matchAll(/^import\s+'([^']+)'/gm)) found.push({ spec, typeOnly: false });
  for (const [, spec] of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push({ spec, typeOnly: false });
  return found.map(({ spec, typeOnly }) => {
    if (!spec.startsWith('.')) return { to: spec, typeOnly };
    const base = path.resolve(path.dirname(path.join(ROOT, file)), spec);
    const target = existsSync(`${base}.ts`) ? `${base}.ts` : path.join(base, 'index.ts');
    return { to: path.relative(ROOT, target), typeOnly };
  });
}

/** Import cycles among `files` (type-only imports included: a reader cannot see the order either way). */
export function cyclesAmong(files: readonly string[]): string[] {
  const inside = new Set(files);
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const walk = (file: string, trail: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
    state.set(file, 'open');
    for (const { to } of importsOf(file)) if (inside.has(to)) walk(to, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of files) walk(file, []);
  return cycles;
}
