/**
 * JSON and JSON-with-comments, read the way the agents read them: positional parsing with
 * person-readable errors ({@link parseJsonText}) and repeated keys ({@link duplicateKeys}), both on
 * jsonc-parser 3.3.1. Decoding the bytes is `../unicode.ts`.
 */
export { parseJsonText, type JsonError, type JsonOk, type JsonParseOptions } from './parse';
export { duplicateKeys, type DuplicateKey } from './textChecks';
