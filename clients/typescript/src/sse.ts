/**
 * A Server-Sent Events reader (the WHATWG `text/event-stream` format): a byte stream in, its messages out. Fetch
 * has no EventSource under Node, and EventSource cannot send an Authorization header, so the client reads the
 * stream itself.
 */
export interface EventMessage {
  /** The `id` in force at this message (the last one sent), for `Last-Event-ID`. */
  id: string | undefined;
  /** `message` when the event names none. */
  event: string;
  data: string;
}

export async function* parseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<EventMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | undefined;
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return; // an unfinished message at the end of the stream is dropped, as the format says
      buffer += decoder.decode(value, { stream: true });
      // A line ends at CRLF, LF or CR; a CR at the buffer's end may be half a CRLF, so it waits for more.
      let match: RegExpExecArray | null;
      while ((match = /\r\n|\n|\r(?!$)/.exec(buffer))) {
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (line === '') {
          if (data.length > 0) yield { id, event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue; // a comment (the service's heartbeat)
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const valuePart = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(valuePart);
        else if (field === 'event') event = valuePart;
        else if (field === 'id' && !valuePart.includes('\0')) id = valuePart;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
