// The OTLP protobuf messages footprint-otel reads and writes, as protobufjs reflection JSON written
// from the published OTLP specification (opentelemetry-proto v1: common, resource, trace, logs and
// the trace/logs collector services). Field numbers are the wire format and must match the spec
// exactly. Only the messages the service needs are here; deprecated fields are left out (unknown
// fields are skipped by the decoder, as the spec requires).
// Must never hold decoding logic or be generated from, or copied out of, another repository.

import protobuf from 'protobufjs';

type Fields = Record<string, { type: string; id: number; rule?: 'repeated' }>;
const msg = (fields: Fields, oneofs?: Record<string, { oneof: string[] }>) => (oneofs ? { fields, oneofs } : { fields });

/** opentelemetry.proto.common.v1 */
const common = {
  AnyValue: msg(
    {
      stringValue: { type: 'string', id: 1 },
      boolValue: { type: 'bool', id: 2 },
      intValue: { type: 'int64', id: 3 },
      doubleValue: { type: 'double', id: 4 },
      arrayValue: { type: 'ArrayValue', id: 5 },
      kvlistValue: { type: 'KeyValueList', id: 6 },
      bytesValue: { type: 'bytes', id: 7 },
    },
    { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] } },
  ),
  ArrayValue: msg({ values: { rule: 'repeated', type: 'AnyValue', id: 1 } }),
  KeyValueList: msg({ values: { rule: 'repeated', type: 'KeyValue', id: 1 } }),
  KeyValue: msg({ key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } }),
  InstrumentationScope: msg({
    name: { type: 'string', id: 1 },
    version: { type: 'string', id: 2 },
    attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
    droppedAttributesCount: { type: 'uint32', id: 4 },
  }),
};

/** opentelemetry.proto.resource.v1 */
const resource = {
  Resource: msg({
    attributes: { rule: 'repeated', type: 'opentelemetry.proto.common.v1.KeyValue', id: 1 },
    droppedAttributesCount: { type: 'uint32', id: 2 },
  }),
};

const KV = 'opentelemetry.proto.common.v1.KeyValue';
const SCOPE = 'opentelemetry.proto.common.v1.InstrumentationScope';
const RESOURCE = 'opentelemetry.proto.resource.v1.Resource';

/** opentelemetry.proto.trace.v1 */
const trace = {
  TracesData: msg({ resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } }),
  ResourceSpans: msg({
    resource: { type: RESOURCE, id: 1 },
    scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
    schemaUrl: { type: 'string', id: 3 },
  }),
  ScopeSpans: msg({
    scope: { type: SCOPE, id: 1 },
    spans: { rule: 'repeated', type: 'Span', id: 2 },
    schemaUrl: { type: 'string', id: 3 },
  }),
  Span: {
    fields: {
      traceId: { type: 'bytes', id: 1 },
      spanId: { type: 'bytes', id: 2 },
      traceState: { type: 'string', id: 3 },
      parentSpanId: { type: 'bytes', id: 4 },
      flags: { type: 'fixed32', id: 16 },
      name: { type: 'string', id: 5 },
      kind: { type: 'int32', id: 6 },
      startTimeUnixNano: { type: 'fixed64', id: 7 },
      endTimeUnixNano: { type: 'fixed64', id: 8 },
      attributes: { rule: 'repeated', type: KV, id: 9 },
      droppedAttributesCount: { type: 'uint32', id: 10 },
      events: { rule: 'repeated', type: 'Event', id: 11 },
      droppedEventsCount: { type: 'uint32', id: 12 },
      links: { rule: 'repeated', type: 'Link', id: 13 },
      droppedLinksCount: { type: 'uint32', id: 14 },
      status: { type: 'Status', id: 15 },
    },
    nested: {
      Event: msg({
        timeUnixNano: { type: 'fixed64', id: 1 },
        name: { type: 'string', id: 2 },
        attributes: { rule: 'repeated', type: KV, id: 3 },
        droppedAttributesCount: { type: 'uint32', id: 4 },
      }),
      Link: msg({
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        attributes: { rule: 'repeated', type: KV, id: 4 },
        droppedAttributesCount: { type: 'uint32', id: 5 },
        flags: { type: 'fixed32', id: 6 },
      }),
    },
  },
  // Status field 1 is reserved (the removed deprecated_code).
  Status: msg({ message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } }),
};

/** opentelemetry.proto.logs.v1 */
const logs = {
  LogsData: msg({ resourceLogs: { rule: 'repeated', type: 'ResourceLogs', id: 1 } }),
  ResourceLogs: msg({
    resource: { type: RESOURCE, id: 1 },
    scopeLogs: { rule: 'repeated', type: 'ScopeLogs', id: 2 },
    schemaUrl: { type: 'string', id: 3 },
  }),
  ScopeLogs: msg({
    scope: { type: SCOPE, id: 1 },
    logRecords: { rule: 'repeated', type: 'LogRecord', id: 2 },
    schemaUrl: { type: 'string', id: 3 },
  }),
  // LogRecord field 4 is reserved.
  LogRecord: msg({
    timeUnixNano: { type: 'fixed64', id: 1 },
    observedTimeUnixNano: { type: 'fixed64', id: 11 },
    severityNumber: { type: 'int32', id: 2 },
    severityText: { type: 'string', id: 3 },
    body: { type: 'opentelemetry.proto.common.v1.AnyValue', id: 5 },
    attributes: { rule: 'repeated', type: KV, id: 6 },
    droppedAttributesCount: { type: 'uint32', id: 7 },
    flags: { type: 'fixed32', id: 8 },
    traceId: { type: 'bytes', id: 9 },
    spanId: { type: 'bytes', id: 10 },
    eventName: { type: 'string', id: 12 },
  }),
};

/** opentelemetry.proto.collector.{trace,logs}.v1 */
const collectorTrace = {
  ExportTraceServiceRequest: msg({ resourceSpans: { rule: 'repeated', type: 'opentelemetry.proto.trace.v1.ResourceSpans', id: 1 } }),
  ExportTraceServiceResponse: msg({ partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 } }),
  ExportTracePartialSuccess: msg({ rejectedSpans: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } }),
};
const collectorLogs = {
  ExportLogsServiceRequest: msg({ resourceLogs: { rule: 'repeated', type: 'opentelemetry.proto.logs.v1.ResourceLogs', id: 1 } }),
  ExportLogsServiceResponse: msg({ partialSuccess: { type: 'ExportLogsPartialSuccess', id: 1 } }),
  ExportLogsPartialSuccess: msg({ rejectedLogRecords: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } }),
};

/** google.rpc.Status (code, message; `details` is never written). */
const googleRpc = { Status: msg({ code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } }) };

export const OTLP_SCHEMA_JSON = {
  nested: {
    google: { nested: { rpc: { nested: googleRpc } } },
    opentelemetry: {
      nested: {
        proto: {
          nested: {
            common: { nested: { v1: { nested: common } } },
            resource: { nested: { v1: { nested: resource } } },
            trace: { nested: { v1: { nested: trace } } },
            logs: { nested: { v1: { nested: logs } } },
            collector: {
              nested: {
                trace: { nested: { v1: { nested: collectorTrace } } },
                logs: { nested: { v1: { nested: collectorLogs } } },
              },
            },
          },
        },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(OTLP_SCHEMA_JSON as protobuf.INamespace);
root.resolveAll();

export const OtlpTypes = {
  ExportTraceServiceRequest: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
  ExportTraceServiceResponse: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
  ExportLogsServiceRequest: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
  ExportLogsServiceResponse: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
  AnyValue: root.lookupType('opentelemetry.proto.common.v1.AnyValue'),
  Status: root.lookupType('google.rpc.Status'),
  // Span fields appended to a forwarded span's own bytes (encode-traces.ts); Resource for tests.
  Span: root.lookupType('opentelemetry.proto.trace.v1.Span'),
  Resource: root.lookupType('opentelemetry.proto.resource.v1.Resource'),
  // Read piece by piece by the service's light read (src/otlp/scan-read.ts).
  InstrumentationScope: root.lookupType('opentelemetry.proto.common.v1.InstrumentationScope'),
} as const;

/** gRPC method paths of the OTLP collector services. */
export const GRPC_TRACE_EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
export const GRPC_LOGS_EXPORT_PATH = '/opentelemetry.proto.collector.logs.v1.LogsService/Export';
