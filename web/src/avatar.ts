import type { SeatSnapshot } from '../../client-sdk/index';
import { colourOf } from './colours';
import { el } from './dom';

/** A round badge with the first letter of the nickname (a robot for a bot). */
export function avatar(seat: SeatSnapshot, seats: readonly SeatSnapshot[], size = ''): HTMLElement {
  const first = [...seat.nickname][0] ?? '?';
  return el(
    'span',
    {
      class: `avatar ${size}`,
      style: `background:${colourOf(seat.id, seats)}`,
      'aria-hidden': 'true',
      'data-colour': colourOf(seat.id, seats),
    },
    seat.bot ? '🤖' : first,
  );
}
