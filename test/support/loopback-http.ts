// Small pieces of the loopback fakes of providers' HTTP APIs (test-only servers on 127.0.0.1).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request's body as text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Answers `body` as JSON with `status`. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
