/**
 * Splits a command line into words the way a POSIX shell would for simple cases: whitespace
 * separates words, single quotes keep everything literally, double quotes keep spaces (with `\"`
 * and `\\` escapes), a backslash outside quotes escapes the next character. No variables, globs or
 * operators: the result is run without a shell.
 * @throws Error for an unterminated quote
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) current += line[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`Unterminated ${quote} quote in: ${line}`);
  if (inWord) words.push(current);
  return words;
}
