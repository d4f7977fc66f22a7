/**
 * Whether this process is draining (server/ops/drain.ts runs the drain): the room asks it before
 * it lets a room be created, so the flag sits below both.
 */
let drainingNow = false;

/** True from the start of a drain: this process creates no room. */
export function isDraining(): boolean {
  return drainingNow;
}

export function setDraining(on: boolean): void {
  drainingNow = on;
}
