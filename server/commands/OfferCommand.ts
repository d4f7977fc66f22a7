import { parseOffer } from './payloads';
import { PlayCommand } from './PlayCommand';

/** The starter hands a card face down to another player with a claim. */
export class OfferCommand extends PlayCommand {
  readonly action = 'offer';
  protected parse = parseOffer;
}
