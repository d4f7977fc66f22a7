import type { SeatSnapshot } from '../../client-sdk/index';
import { el } from './dom';

const COLOURS = ['#ff9f6b', '#6bc4ff', '#9b8cff', '#5fd39a', '#ffc94d', '#ff7fb0', '#4fd1c5', '#f58d8d'];

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return h;
}

/** A round badge with the first letter of the nickname, its colour fixed by the player id. */
export function avatar(seat: SeatSnapshot, size = ''): HTMLElement {
  const first = [...seat.nickname][0] ?? '?';
  return el('span', { class: `avatar ${size}`, style: `background:${COLOURS[hash(seat.id) % COLOURS.length]}` }, seat.bot ? '🤖' : first);
}
