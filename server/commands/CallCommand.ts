import { parseCall } from './payloads';
import { PlayCommand } from './PlayCommand';

/** The holder says "true" or "false" about the latest claim; the card is revealed. */
export class CallCommand extends PlayCommand {
  readonly action = 'call';
  protected parse = parseCall;
}
