import { parsePeek } from './payloads';
import { PlayCommand } from './PlayCommand';

/** The holder secretly looks at the card, and from then on must pass it on. */
export class PeekCommand extends PlayCommand {
  readonly action = 'peek';
  protected parse = parsePeek;
}
