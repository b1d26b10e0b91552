/**
 * Reads a dotenv file (`.env`, `.gemini/.env`) the way the common loaders (dotenv 16, which Gemini
 * CLI uses) read simple lines: `NAME=value` or `export NAME=value`, a value in single or double
 * quotes taken literally, an unquoted value ending at ` #`. Multi-line values and `${VAR}`
 * expansion are not interpreted (their raw text is kept). Never throws.
 * @returns variables in file order with their 1-based line; a repeated name keeps the last line
 */
export function parseDotenv(text: string): Map<string, { value: string; line: number }> {
  const out = new Map<string, { value: string; line: number }>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(raw);
    if (!m) return;
    const v = m[2].trim();
    const quoted = /^(["'`])(.*?)\1(\s+#.*)?$/.exec(v);
    out.set(m[1], { value: quoted ? quoted[2] : v.replace(/\s+#.*$/, ''), line: i + 1 });
  });
  return out;
}
