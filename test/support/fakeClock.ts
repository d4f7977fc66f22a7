import type { Room } from 'colyseus';

/**
 * Takes over a room's clock: time moves only when the test says so. The room's patch interval
 * still ticks the clock, but with the fake time source a tick advances nothing on its own.
 */
export function fakeClock(room: Room) {
  const clock = room.clock as unknown as { now: () => number; tick(): void };
  let now = clock.now();
  clock.now = () => now;
  clock.tick();
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
      clock.tick();
    },
  };
}
