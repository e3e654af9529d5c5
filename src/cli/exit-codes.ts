// The exit codes of the `footprint-otel` command, in one place: what each means, for the usage
// text, the README and CI gates. Constants only; it must never decide whether findings fail a run.

export const EXIT = {
  /** It ran; nothing the --fail-on policy counts was found. */
  ok: 0,
  /** It ran and found what the --fail-on policy counts (a CI gate's failure). */
  findings: 1,
  /** Bad usage or unusable input (unknown option, unreadable or unrecognised file, refused declarations). */
  usage: 2,
  /** footprint-otel itself failed (a bug): never confused with findings. */
  internal: 3,
} as const;

export const EXIT_CODES_HELP = `exit codes:
  ${EXIT.ok}  ran, and nothing the --fail-on policy counts was found
  ${EXIT.findings}  ran, and found what --fail-on counts (findings: non-advisory findings; advisory: any finding; unchecked: no check gave a verdict)
  ${EXIT.usage}  bad usage or unusable input (the reason is printed on stderr)
  ${EXIT.internal}  footprint-otel itself failed (please report it)`;
