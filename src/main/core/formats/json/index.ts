/**
 * JSON and JSON-with-comments, read the way the agents read them: positional parsing with
 * person-readable errors ({@link parseJsonText}), repeated keys ({@link duplicateKeys}) and UTF-8
 * decoding as Node's `readFile(..., 'utf8')` does it ({@link decodeUtf8}). All on jsonc-parser 3.3.1.
 */
export { parseJsonText, type JsonError, type JsonOk, type JsonParseOptions } from './parse';
export { decodeUtf8, duplicateKeys, type DecodedText, type DuplicateKey } from './textChecks';
