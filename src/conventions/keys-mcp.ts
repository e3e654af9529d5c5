// Attribute keys and values of the OpenTelemetry MCP semantic conventions (semantic-conventions-genai,
// docs/gen-ai/mcp.md, status Development) that footprint reads, spelled out once. Constants only.

/** Required on every MCP span: the JSON-RPC method, e.g. `tools/call`, `tools/list`, `initialize`. */
export const MCP_METHOD_NAME = 'mcp.method.name';
/** The MCP session (not a conversation: one session serves many conversations). */
export const MCP_SESSION_ID = 'mcp.session.id';
export const MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
/** The method of a tool call; the span is named `tools/call {gen_ai.tool.name}`. */
export const MCP_TOOLS_CALL = 'tools/call';
/** `error.type` when the call returned a CallToolResult with `isError: true`. */
export const MCP_TOOL_ERROR = 'tool_error';
