import { shellQuote } from '../core/formats/shell/quote';

/**
 * A path or word as it must be typed in a shell: unchanged when it has only safe characters, else
 * quoted by {@link shellQuote}. For the commands the CLI suggests in its messages, so they can be
 * copied and run as printed.
 */
export function shellArg(value: string): string {
  return /^[\w./@:+,=-]+$/.test(value) ? value : shellQuote(value);
}
