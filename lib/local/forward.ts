// A front of the twin's own in front of an emulator that checks no signatures (DynamoDB Local, cognito-local): the
// emulator listens on a loopback port of its own, and the front, on the port the clients know, checks each request
// (lib/local/sigv4.ts, grants.ts) before it forwards it there.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface Forwarded {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** The request's body, read whole. */
export async function readWhole(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Sends the request (with the body already read) to the emulator on `port`, and reads its whole answer. */
export function forward(port: number, req: IncomingMessage, body: Buffer): Promise<Forwarded> {
  return new Promise((resolveForward, reject) => {
    const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${port}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolveForward({ status: response.statusCode ?? 500, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    upstream.on('error', reject);
    upstream.end(body);
  });
}

/** A front listening on 127.0.0.1:`port`; `handle` answers each request (a failure is a 500 and a log line). */
export async function startFront(port: number, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, log: (line: string) => void): Promise<{ server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Refused connections only mean the emulator is still starting (the twin waits for it).
      if ((error as { code?: string }).code !== 'ECONNREFUSED') log(`front of port ${port} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ __type: 'InternalServerError', message: 'Internal server error' }));
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolveListen());
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
