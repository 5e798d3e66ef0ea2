import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A content block of an assistant turn the script gives. */
export type ScriptedBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** A `tool_result` block as Claude Code sent it back, with its content as the text the model reads. */
export interface SeenToolResult {
  toolUseId: string;
  isError: boolean;
  text: string;
}

/** A Messages API request body, as far as the script looks at it. */
export interface MessagesRequest {
  model: string;
  stream?: boolean;
  tools?: { name: string }[];
  messages: { role: string; content: string | { type: string; [key: string]: unknown }[] }[];
}

/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`, streamed or not), so the Claude Agent SDK's
 * bundled Claude Code runs a real loop against a scripted model. `turn` gives the assistant's blocks for each request;
 * every `tool_result` Claude Code sends is recorded in `toolResults`.
 */
export interface ScriptedMessagesApi {
  url: string;
  toolResults: SeenToolResult[];
  close(): Promise<void>;
}

export async function startScriptedMessagesApi(turn: (request: MessagesRequest) => ScriptedBlock[]): Promise<ScriptedMessagesApi> {
  const toolResults: SeenToolResult[] = [];
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not scripted' } }));
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as MessagesRequest;
      toolResults.push(...toolResultsOf(request));
      const content = turn(request);
      const stopReason = content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
      const message = { id: `msg_${++count}`, type: 'message', role: 'assistant', model: request.model, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
      if (request.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...message, content, stop_reason: stopReason }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send('message_start', { message: { ...message, content: [], stop_reason: null } });
      content.forEach((block, index) => {
        if (block.type === 'text') {
          send('content_block_start', { index, content_block: { type: 'text', text: '' } });
          send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
        } else {
          send('content_block_start', { index, content_block: { ...block, input: {} } });
          send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
        }
        send('content_block_stop', { index });
      });
      send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 1 } });
      send('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    toolResults,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The tool results in a request's last user message. */
export function toolResultsOf(request: MessagesRequest): SeenToolResult[] {
  const last = request.messages.at(-1);
  if (last?.role !== 'user' || typeof last.content === 'string') return [];
  return last.content.flatMap((block) => {
    if (block.type !== 'tool_result') return [];
    const content = block.content as string | { type: string; text?: string }[] | undefined;
    const text = typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? `[${part.type}]`).join('\n');
    return [{ toolUseId: block.tool_use_id as string, isError: block.is_error === true, text }];
  });
}
