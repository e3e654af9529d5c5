// Reads the trace files a CLI command was given, in order, into one decoded document.
// Must never throw over a missing or unreadable file or a bad document: a file that cannot be read
// is named in the error it returns, and what a file held that is not a trace is left to the
// decoder's diagnostics.

import { readFileSync } from 'node:fs';
import type { DecodedDocument } from '../otlp/json.js';
import { decodeTraceFileText } from '../otlp/trace-file.js';

export type TraceFilesRead =
  | { ok: true; doc: DecodedDocument }
  | { ok: false; error: string };

export function readTraceFiles(paths: readonly string[]): TraceFilesRead {
  let doc: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [] };
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      return { ok: false, error: `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
    }
    doc = decodeTraceFileText(text, path, doc);
  }
  return { ok: true, doc };
}
