import { describe, expect, it } from 'vitest';
import { checkedText } from '../../../src/main/core/formats/checkedText';
import { splitFrontmatter } from '../../../src/main/core/formats/frontmatter';
import { parseJsonText } from '../../../src/main/core/formats/json';
import { parseTomlText } from '../../../src/main/core/formats/toml';
import { findInvisible, visible } from '../../../src/main/core/formats/unicode';

describe('JSON reader on jsonc-parser: the error a reader needs, not the scanner\'s look-ahead', () => {
  it.each([
    // a bad string where a comma belongs is a missing comma, whatever the string holds
    ['{"a": 1 "\\q"}', 1, 9, `expected ',' or '}' after the value of "a", found '"'`],
    ['[1 "\\q"]', 1, 4, `expected ',' or ']' in the array, found '"'`],
    // the same bad string where a value may stand is the bad escape, at its backslash
    ['{"a": "x\\q"}', 1, 9, 'invalid escape sequence in a string'],
    // a word the scanner reads whole is a complete keyword followed by something unexpected
    ['[truex]', 1, 6, `expected ',' or ']' in the array, found 'x'`],
    ['1.', 1, 2, `unexpected '.' after the end of the JSON value`],
    ['-', 1, 1, 'invalid number'],
    ['{"a" 1}', 1, 6, `expected ':' after property name "a", found '1'`],
    ['{"a": "x', 1, 7, 'unterminated string'],
    ['{"a": "\t"}', 1, 8, 'control character inside a string'],
    [`${'['.repeat(257)}1`, 1, 258, 'nesting is too deep'],
  ])('%j → line %i column %i: %s', (text, line, column, message) => {
    expect(parseJsonText(text)).toMatchObject({ ok: false, line, column, message });
  });

  it('reads what JSON.parse reads, the last repeated key winning in the first key\'s place', () => {
    for (const text of ['{"a":1,"b":[true,false,null,"\\u00e9\\ud83d\\ude00"],"a":2}', '[-0.5e+3, 0, 1E2, "x\\/y"]', '"s"', '  7  ']) {
      const res = parseJsonText(text);
      if (!res.ok) throw new Error(res.message);
      expect(res.value).toEqual(JSON.parse(text));
      expect(JSON.stringify(res.value)).toBe(JSON.stringify(JSON.parse(text)));
    }
  });

  it('JSONC: an unclosed block comment is named as such; in plain JSON it is a comment at all', () => {
    expect(parseJsonText('{} /* x', { jsonc: true })).toMatchObject({ ok: false, line: 1, column: 4, message: 'unterminated /* comment' });
    expect(parseJsonText('{} /* x')).toMatchObject({ ok: false, line: 1, column: 4, message: 'comments are not allowed in JSON' });
  });
});

describe('one frontmatter splitter, two readings of invalid YAML', () => {
  const text = '---\nname: a\ndescription: Use when: x\nname: b\n---\nBody\n';

  it("'repair' (rule catalog, extensions) quotes and re-parses; 'report' (review) names the YAML error and reads lines", () => {
    const repaired = splitFrontmatter('---\ndescription: Use when: x\n---\nBody\n');
    expect(repaired.frontmatter).toMatchObject({ mode: 'repaired', data: { description: 'Use when: x' } });
    expect(repaired.warnings).toEqual([expect.objectContaining({ code: 'frontmatter-unquoted-colon', line: 2 })]);
    const reported = splitFrontmatter(text, { invalidYaml: 'report' });
    expect(reported.frontmatter).toMatchObject({ mode: 'lines', data: { name: 'a', description: 'Use when: x' } });
    expect(reported.warnings).toEqual([expect.objectContaining({ code: 'frontmatter-invalid', line: 3, message: expect.stringMatching(/^frontmatter is not valid YAML: /), fix: expect.stringContaining("description: 'Use when: x'") })]);
    // both split at the same fences
    expect([repaired.body, repaired.bodyLine]).toEqual(['Body\n', 4]);
    expect([reported.body, reported.bodyLine, reported.lineOf('description')]).toEqual(['Body\n', 6, 3]);
  });

  it('an unclosed block: plain text for the catalog, frontmatter with an empty body for the review; a BOM is skipped and reported', () => {
    expect(splitFrontmatter('---\npaths: x\nno end')).toMatchObject({ frontmatter: null, body: '---\npaths: x\nno end', warnings: [{ code: 'frontmatter-unclosed', line: 1 }] });
    expect(splitFrontmatter('\uFEFF---\npaths: x\nno end', { invalidYaml: 'report' })).toMatchObject({ bom: true, body: '', frontmatter: { data: { paths: 'x' } }, warnings: [{ code: 'frontmatter-unclosed', line: 1 }] });
    expect(splitFrontmatter('---', { invalidYaml: 'report' }).frontmatter).toBeNull();
  });

  it('sourceOf: the text the author wrote for a value YAML reads as a list, mapping, number or null; the line after the key when the YAML does not parse', () => {
    const split = splitFrontmatter('---\nargument-hint: [topic: foo | bar]   # the hint\ndescription: 1.50\nmodel: ~\nempty:\ntools:\n  - Read\n  - {Bash: git}\n---\nBody\n');
    expect(split.frontmatter?.data).toMatchObject({ 'argument-hint': [{ topic: 'foo | bar' }], description: 1.5, model: null, empty: null });
    expect(['argument-hint', 'description', 'model', 'empty', 'tools', 'absent'].map((k) => split.sourceOf(k))).toEqual(['[topic: foo | bar]', '1.50', '~', '', '- Read - {Bash: git}', null]);
    // repeated keys: the last one's text, as the data holds the last value
    expect(splitFrontmatter('---\na: [x: 1]\na: 2\n---\n').sourceOf('a')).toBe('2');
    // YAML that does not parse: the text after the key on its line
    expect(splitFrontmatter('---\nhint: [a: 1\n---\n').sourceOf('hint')).toBe('[a: 1');
    expect(splitFrontmatter('no frontmatter').sourceOf('a')).toBeNull();
  });

  it('repeated keys: an error for the catalog reading, the last value for the review (as the yaml package reads them)', () => {
    expect(splitFrontmatter('---\na: 1\na: 2\n---\n').frontmatter?.mode).toBe('lines');
    expect(splitFrontmatter('---\na: 1\na: 2\n---\n', { invalidYaml: 'report' })).toMatchObject({ frontmatter: { mode: 'yaml', data: { a: 2 } }, warnings: [] });
  });
});

describe('TOML, UTF-8 and invisible characters', () => {
  it('parseTomlText gives the line and column and the message with and without smol-toml\'s prefix', () => {
    expect(parseTomlText('a = 1\n[t]\nb = "x"\n')).toEqual({ ok: true, value: { a: 1, t: { b: 'x' } } });
    const bad = parseTomlText('model = "x"\nsandbox_mode = \n');
    expect(bad).toMatchObject({ ok: false, line: 2 });
    if (bad.ok) return;
    expect(bad.column).toBeGreaterThan(0);
    expect(bad.message).toContain(bad.reason);
    expect(bad.reason).not.toMatch(/^Invalid TOML document/);
  });

  it('checkedText returns path-free warnings the caller places', () => {
    const { text, warnings } = checkedText(Buffer.from('{\n"a": 1,\n"a": 2\n}'), 'json');
    expect(text).toBe('{\n"a": 1,\n"a": 2\n}');
    expect(warnings).toEqual([{ line: 3, message: expect.stringContaining('repeats the key "a" (first at line 2)'), fix: 'Keep one "a" and delete the other.' }]);
    expect(checkedText(Buffer.from([0x61, 0x0a, 0xff]), 'toml').warnings).toEqual([expect.objectContaining({ line: 2 })]);
  });

  it('findInvisible counts from an index and names the first; visible shows each', () => {
    const text = '\uFEFFa\u200Bb\n\u202Ec';
    expect(findInvisible(text, 1)).toEqual({ index: 2, line: 1, codePoint: 'U+200B', count: 2 });
    expect(findInvisible('plain', 0)).toBeNull();
    expect(visible(text)).toBe('⟨U+FEFF⟩a⟨U+200B⟩b\n⟨U+202E⟩c');
  });
});
