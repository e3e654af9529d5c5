// The OTLP/protobuf body of a batch's log records to send onward (the evaluation records), encoded
// in chunks with the event loop given a turn between them: a batch with thousands of findings has
// thousands of records (~60-90 ms of encoding in one piece, measured under the 32 x 18 MB flood).
// Concatenated ExportLogsServiceRequest messages are one message (protobuf appends repeated
// fields), so the body decodes to the same records. Must never reorder or drop a record.

import type { LogData } from '../model/telemetry.js';
import { encodeLogsRequestProto } from '../otlp/proto.js';
import type { TimeSlice } from './time-slice.js';

/** Records encoded between two looks at the time slice. */
const RECORDS_PER_CHUNK = 128;

export async function encodeLogsBody(logs: readonly LogData[], slice: TimeSlice): Promise<Uint8Array> {
  if (logs.length <= RECORDS_PER_CHUNK) return encodeLogsRequestProto(logs);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < logs.length; i += RECORDS_PER_CHUNK) {
    if (slice.due()) await slice.pause();
    parts.push(encodeLogsRequestProto(logs.slice(i, i + RECORDS_PER_CHUNK)));
  }
  return Buffer.concat(parts);
}
