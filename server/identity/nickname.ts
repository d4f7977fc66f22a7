/**
 * A person's name at the table: what may be shown (parseNickname) and what may not pass for a
 * practice bot (isReservedNickname). Used by the join options (server/room/joinOptions.ts) and
 * by guest identities (tokens.ts), so it sits here, below the room.
 */
import { NICKNAME_MAX } from '../protocol';

/** Combining marks allowed on one base character (Vietnamese needs two; Zalgo text needs many). */
export const MAX_MARKS_PER_BASE = 2;

// Control, private-use, surrogate, unassigned (noncharacters such as U+FFFF are unassigned too),
// line/paragraph separators.
const NEVER = /[\p{Cc}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}]/u;
// Characters that draw nothing: fillers (U+3164, U+115F, U+1160, U+FFA0), U+2800 braille
// blank, and everything Unicode marks as ignorable (zero-width, variation selectors, tags...).
const BLANK = /[\p{Default_Ignorable_Code_Point}\u2800\u115F\u1160\u3164\uFFA0]/u;
const FORMAT = /\p{Cf}/u;
// In a /u pattern only an unpaired surrogate is a code point of its own.
const LONE_SURROGATE = /\p{Cs}/u;
const SPACE = /\p{Zs}/u;
const MARK = /\p{M}/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const EMOJI_MODIFIER = /[\u{1F3FB}-\u{1F3FF}]/u;
const VISIBLE = /[\p{L}\p{N}\p{S}]/u;
const ZWJ = '\u200D';
const EMOJI_PRESENTATION = '\uFE0F';
const TEXT_PRESENTATION = '\uFE0E';

/** What every practice bot's name starts with (server/bots/nicknames.ts), so a child can tell a bot from a person. */
const BOT_PREFIX = '로봇';

/**
 * Could this name pass for a practice bot's (issue 32)? Read as a child reads it: only its Hangul
 * syllables count, whatever stands between or before them (spaces, symbols, marks, a modifier
 * letter or a lone jamo: "ʼ로봇", "ㅣ로봇", "로 봇"), and a name with "로봇" anywhere in them is a
 * bot's.
 */
export function isReservedNickname(name: string): boolean {
  const syllables = name.normalize('NFKC').replace(/[^\uAC00-\uD7A3]/gu, '');
  return syllables.includes(BOT_PREFIX);
}

/**
 * NFC, trimmed, 1–12 code points of well-formed Unicode that show on every screen; null when
 * unusable. Emoji ZWJ sequences (families, "👩‍❤️‍👨") are allowed on purpose: a zero-width joiner
 * passes only between two pictographs, so it cannot hide text or stand alone.
 */
export function parseNickname(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 200 || LONE_SURROGATE.test(raw)) return null;
  const name = raw.normalize('NFC').trim();
  const points = [...name];
  if (points.length < 1 || points.length > NICKNAME_MAX) return null;
  let marks = 0;
  let visible = false;
  for (let i = 0; i < points.length; i++) {
    const c = points[i];
    if (NEVER.test(c)) return null;
    if (c === ZWJ) {
      if (!joinsPictographs(points, i)) return null;
      continue;
    }
    if (c === EMOJI_PRESENTATION || c === TEXT_PRESENTATION) {
      if (i === 0 || !(PICTOGRAPH.test(points[i - 1]) || VISIBLE.test(points[i - 1]))) return null;
      continue;
    }
    if (BLANK.test(c) || FORMAT.test(c)) return null;
    if (MARK.test(c)) {
      if (i === 0 || ++marks > MAX_MARKS_PER_BASE || SPACE.test(points[i - 1])) return null;
      continue;
    }
    marks = 0;
    if (SPACE.test(c) && c !== ' ') return null; // NBSP, thin and ideographic spaces look like nothing
    if (VISIBLE.test(c)) visible = true;
  }
  return visible ? name : null;
}

/** A ZWJ at `i` with a pictograph before it (past a presentation selector or skin tone) and after it. */
function joinsPictographs(points: string[], i: number): boolean {
  let before = i - 1;
  while (before >= 0 && (points[before] === EMOJI_PRESENTATION || EMOJI_MODIFIER.test(points[before]))) before--;
  return before >= 0 && PICTOGRAPH.test(points[before]) && i + 1 < points.length && PICTOGRAPH.test(points[i + 1]);
}
