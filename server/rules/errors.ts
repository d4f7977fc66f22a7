/**
 * Every refusal the rules can give: a stable code for programs and a short Korean sentence a
 * child understands. Messages never mention a hidden card, so a refusal leaks nothing.
 */
export const RULE_MESSAGES = {
  GAME_OVER: '게임이 이미 끝났어요.',
  NOT_A_PLAYER: '게임에 참여한 사람만 할 수 있어요.',
  UNKNOWN_ACTION: '알 수 없는 행동이에요.',
  NOT_YOUR_TURN: '지금은 내 차례가 아니에요.',
  MUST_OFFER: '지금은 카드를 골라 다른 친구에게 건넬 차례예요.',
  CARD_IN_FLIGHT: '이미 건네진 카드가 있어요. 판정하거나 넘겨야 해요.',
  CARD_NOT_IN_HAND: '그 카드는 내 손에 없어요.',
  UNKNOWN_PLAYER: '그런 친구는 이 게임에 없어요.',
  CANNOT_TARGET_SELF: '나에게는 줄 수 없어요. 다른 친구를 골라요.',
  INVALID_CLAIM: '벌레 8종 중에서 하나를 골라 말해야 해요.',
  INVALID_CALL: '"진짜" 또는 "거짓말" 중 하나를 골라야 해요.',
  ALREADY_PEEKED: '카드를 이미 봤으니 다른 사람에게 넘겨야 해요.',
  ALREADY_SEEN: '이 카드는 이미 봤어요. 진짜인지 거짓말인지 골라요.',
  TWO_PLAYER_NO_PEEK: '둘이서 할 때는 몰래 보고 넘길 수 없어요. 진짜인지 거짓말인지 골라요.',
  NO_PASS_TARGET: '모두 이 카드를 봤어요. 넘길 사람이 없으니 진짜인지 거짓말인지 골라요.',
  MUST_PEEK_FIRST: '넘기기 전에 먼저 카드를 몰래 봐야 해요.',
  TARGET_ALREADY_SEEN: '그 친구는 이 카드를 이미 봤어요. 다른 친구를 골라요.',
  BAD_OPTIONS: '게임 설정이 올바르지 않아요.',
  UNKNOWN_OPTION: '모르는 게임 설정이 있어요.',
  BAD_OPTION: '게임 설정 값이 올바르지 않아요.',
  BAD_PLAYERS: '2명에서 6명까지 함께 할 수 있어요.',
} as const;

export type RuleErrorCode = keyof typeof RULE_MESSAGES;

export interface RuleError {
  code: RuleErrorCode;
  message: string;
  /** The option or field at fault, when there is one (never a hidden value). */
  field?: string;
}

export function ruleError(code: RuleErrorCode, field?: string): RuleError {
  return field === undefined ? { code, message: RULE_MESSAGES[code] } : { code, message: RULE_MESSAGES[code], field };
}
