// Plain-data telemetry: the one shape every input (SDK ReadableSpan, OTLP/JSON, OTLP/protobuf)
// is turned into before any convention reads it. Values here are decoded OTLP AnyValues.
// Must never hold SDK objects, sockets or clocks: this is data, passed by value.

/** A decoded OTLP AnyValue: kvlists become plain objects, arrays stay arrays, bytes stay bytes. */
export type AttrValue =
  | string
  | number
  | boolean
  | null
  | Uint8Array
  | AttrValue[]
  | { [key: string]: AttrValue };

export type Attributes = Record<string, AttrValue>;

/** OTLP status codes: 0 unset, 1 ok, 2 error. */
export type StatusCode = 0 | 1 | 2;

export interface SpanEventData {
  name: string;
  timeUnixNano: bigint;
  attributes: Attributes;
}

export interface SpanLinkData {
  traceId: string;
  spanId: string;
  attributes: Attributes;
}

export interface ScopeData {
  name: string;
  version?: string;
}

export interface SpanData {
  /** 32 lower-case hex characters. */
  traceId: string;
  /** 16 lower-case hex characters. */
  spanId: string;
  parentSpanId?: string;
  /** The parent is in another process (an incoming traceparent): this span is the local root. Known in-process only. */
  parentIsRemote?: true;
  name: string;
  /** OTLP span kind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  events: SpanEventData[];
  links?: SpanLinkData[];
  status: { code: StatusCode; message?: string };
  resource: Attributes;
  scope: ScopeData;
  /** Attributes the SDK dropped at its count limit (128 by default): the recorded content may be partial. */
  droppedAttributesCount?: number;
}

export interface LogData {
  traceId?: string;
  spanId?: string;
  /** The LogRecord `eventName` field (newer SDKs); older ones put the name in the `event.name` attribute. */
  eventName?: string;
  timeUnixNano: bigint;
  severityNumber?: number;
  body: AttrValue | undefined;
  attributes: Attributes;
  resource: Attributes;
  scope: ScopeData;
}

/** Identifies a span across the whole system. */
export interface SpanRef {
  traceId: string;
  spanId: string;
}

export function spanKey(ref: SpanRef): string {
  return `${ref.traceId}/${ref.spanId}`;
}

export function refOf(span: SpanData): SpanRef {
  return { traceId: span.traceId, spanId: span.spanId };
}
