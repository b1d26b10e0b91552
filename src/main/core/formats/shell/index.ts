export { bashGrammarPath, bashParser } from './grammar';
export { literalText, parseShell, parseShellSync, type Redirect, type ShellScript, type SimpleCommand, type Word, type WordPart } from './parse';
export { expandWord, type ExpandEnv, type Expanded } from './expand';
export { isCommandSeparator, isRedirection, lexShell, simpleCommands, splitWords, type ShellItem, type ShellLex, type ShellWord } from './lex';
export { shellQuote } from './quote';
