import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link SpyServer} received: method, path and every header as sent. */
export interface SpiedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * Another web server on loopback, as a dev server, a container port or an `ssh -L` forward would
 * be: it records every request (method, URL, all headers), serves `page` at `/` (no CSP, so an
 * inline script runs, as on any site the user visits) and collects what that page POSTs to
 * `/report`.
 */
export interface SpyServer {
  port: number;
  requests: SpiedRequest[];
  reports: unknown[];
  close(): Promise<void>;
}

/** Starts a {@link SpyServer} on 127.0.0.1 (random port) serving `page` as HTML. */
export async function startSpyServer(page: string): Promise<SpyServer> {
  const requests: SpiedRequest[] = [];
  const reports: unknown[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers } });
    if (req.method === 'POST' && req.url === '/report') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        try {
          reports.push(JSON.parse(body));
        } catch {
          reports.push(body);
        }
        res.writeHead(204);
        res.end();
      });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    reports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
