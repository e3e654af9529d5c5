// Turns node:util parseArgs' errors into complete sentences: the unknown option named in full (as
// typed, with the nearest valid one), a missing value named with its option. Phrasing only; it
// must never accept an option parseArgs refused, nor cut the text it was given.

import { nearest } from '../declarations/nearest.js';

/** The reason for a refused command line, e.g. `unknown option "--fromat" (did you mean --format?)`. */
export function argsErrorReason(e: unknown, argv: readonly string[], optionNames: readonly string[]): string {
  const err = e as { code?: string; message?: string };
  const message = String(err?.message ?? e);
  if (err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const name = /^Unknown option '(.*?)'\. /.exec(message)?.[1] ?? /^Unknown option '(.*)'/.exec(message)?.[1];
    if (name !== undefined) {
      const typed = argv.find((a) => a === name || a.startsWith(`${name}=`) || (!name.startsWith('--') && a.startsWith('-') && !a.startsWith('--') && a.includes(name.slice(1))));
      const long = name.replace(/^-+/, '');
      const near = long.length > 1 ? nearest(long, optionNames) : undefined;
      return [
        `unknown option "${name}"`,
        typed !== undefined && typed !== name ? ` (in "${typed}")` : '',
        near ? `; did you mean --${near}?` : '',
        `; the options are ${optionNames.map((o) => `--${o}`).join(', ')}`,
        '; a file whose name starts with "-" goes after "--"',
      ].join('');
    }
  }
  if (err?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const missing = /^Option '(-\S+)(?: <value>)?' argument missing/.exec(message);
    if (missing) return `option ${missing[1]} needs a value`;
  }
  return message;
}
