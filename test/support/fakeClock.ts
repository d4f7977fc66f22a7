import type { CockroachRoom } from '../../server/room/CockroachRoom';
import { TICK_MS } from '../../server/room/constants';

/**
 * Takes over a room's time source, modelling real time: time passes between ticks, and the room
 * ticks its table every TICK_MS as it does on a real process. `advance(ms)` lets `ms` pass, ticking at each
 * tick boundary on the way; `elapse(ms)` lets time pass with no tick (the moments between two
 * ticks, where a turn may begin). The real tick interval keeps running, but with the time frozen
 * it finds nothing due.
 */
export function fakeClock(room: CockroachRoom) {
  const clock = room.clock as unknown as { now: () => number };
  let now = clock.now();
  // The next tick is due this long after `now`: turns do not start on tick boundaries.
  let toTick = TICK_MS;
  clock.now = () => now;
  // The table's timers only: the heartbeat waits for real pongs, which fake time cannot bring.
  const tick = () => room.table.tick();
  return {
    now: () => now,
    /** Lets `ms` pass, ticking the room at each tick boundary and once at the end. */
    advance(ms: number) {
      let left = ms;
      while (left >= toTick) {
        left -= toTick;
        now += toTick;
        toTick = TICK_MS;
        tick();
      }
      now += left;
      toTick -= left;
      if (left > 0) tick();
    },
    /** Lets `ms` pass between ticks: nothing runs. */
    elapse(ms: number) {
      now += ms;
      toTick = Math.max(1, toTick - ms);
    },
  };
}
