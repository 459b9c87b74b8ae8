import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now, for a child service the benchmark starts. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}
