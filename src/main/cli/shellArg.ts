/**
 * A path or word as it must be typed in a POSIX shell: unchanged when it has only safe characters,
 * else single-quoted (with `'` written as `'\''`). For the commands the CLI suggests in its
 * messages, so they can be copied and run as printed.
 */
export function shellArg(value: string): string {
  return /^[\w./@:+,=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
