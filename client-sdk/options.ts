import type { ResolvedOptions, WireOptions } from '../server/rules/options';

/**
 * The room's options as the snapshot shows them, each value as its literal union
 * (`loseCount: 3 | 4 | 5`, `turnSeconds: 15 | 30 | 60`, …), not the wire's plain numbers.
 */
export type SnapshotOptions = Required<ResolvedOptions> & { private: boolean };

/** Compile-time guard: a new option in server/rules/options.ts must show up here too. */
export type SnapshotOptionsCoverTheWire = [keyof WireOptions] extends [keyof SnapshotOptions]
  ? [keyof SnapshotOptions] extends [keyof WireOptions]
    ? true
    : never
  : never;
export const SNAPSHOT_OPTIONS_COVER_THE_WIRE: SnapshotOptionsCoverTheWire = true;
