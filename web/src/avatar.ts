import type { SeatSnapshot } from '../../client-sdk/index';
import { el } from './dom';

const COLOURS = ['#ff9f6b', '#6bc4ff', '#9b8cff', '#5fd39a', '#ffc94d', '#ff7fb0', '#4fd1c5', '#f58d8d'];

/** Colours handed out in the order players first appear on this page, so no two share one. */
const assigned = new Map<string, string>();
function colourOf(id: string): string {
  let colour = assigned.get(id);
  if (!colour) {
    colour = COLOURS[assigned.size % COLOURS.length];
    assigned.set(id, colour);
  }
  return colour;
}

/** A round badge with the first letter of the nickname (a robot for a bot). */
export function avatar(seat: SeatSnapshot, size = ''): HTMLElement {
  const first = [...seat.nickname][0] ?? '?';
  return el('span', { class: `avatar ${size}`, style: `background:${colourOf(seat.id)}` }, seat.bot ? '🤖' : first);
}
