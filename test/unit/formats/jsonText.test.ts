import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../../src/main/core/formats/json';

describe('positional JSON parser', () => {
  it('parses what JSON.parse parses and reports the line each object starts on', () => {
    const text = '{\n  "a": [1, -2.5e3, true, null],\n  "b": {\n    "c": "\\u00e9\\n"\n  }\n}';
    const res = parseJsonText(text);
    if (!res.ok) throw new Error(res.message);
    expect(res.value).toEqual(JSON.parse(text));
    const value = res.value as { a: unknown[]; b: object };
    expect(res.lineOf(value)).toBe(1);
    expect(res.lineOf(value.a)).toBe(2);
    expect(res.lineOf(value.b)).toBe(3);
    expect(res.lineOf('x')).toBeNull();
  });

  it.each([
    ['{\n  "a": 1,\n}', 3, 1, 'trailing comma'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' or '}'"],
    ["{ 'a': 1 }", 1, 3, 'expected a "quoted" property name'],
    ['{ "a": "x\ny" }', 1, 10, 'line break inside a string'],
    ['[1, 2', 1, 6, "expected ',' or ']'"],
    ['', 1, 1, 'empty'],
    ['{} x', 1, 4, 'after the end'],
    ['// c\n{}', 1, 1, 'comments are not allowed'],
  ])('reports %j at line %i column %i', (text, line, column, message) => {
    const res = parseJsonText(text);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res).toMatchObject({ line, column });
    expect(res.message).toContain(message);
    expect(res.fix.length).toBeGreaterThan(5);
  });

  it('accepts comments and trailing commas in JSONC mode, and skips a BOM', () => {
    const res = parseJsonText('\uFEFF{\n // note\n "a": [1,], /* x */\n}', { jsonc: true });
    expect(res).toMatchObject({ ok: true, value: { a: [1] } });
    const bad = parseJsonText('\uFEFF{\n "a": }');
    expect(bad).toMatchObject({ ok: false, line: 2 });
  });

  it('does not let a "__proto__" key change the prototype', () => {
    const res = parseJsonText('{"__proto__": {"polluted": true}}');
    if (!res.ok) throw new Error(res.message);
    expect(Object.getPrototypeOf(res.value)).toBe(Object.prototype);
    expect(Object.keys(res.value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never throws on deep nesting', () => {
    expect(parseJsonText('['.repeat(5000))).toMatchObject({ ok: false, message: 'nesting is too deep' });
  });
});
