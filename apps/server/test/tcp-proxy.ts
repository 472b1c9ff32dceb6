import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL here), to take it away and bring it back without
 * touching the real one that other tests share: `cut` drops every proxied connection and refuses new
 * ones, `restore` takes connections again on the same port.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = netConnect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    /** Every proxied connection is reset and nothing listens on the port any more. */
    async cut() {
      const s = server;
      server = null;
      const closed = new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
      for (const socket of sockets) socket.resetAndDestroy();
      await closed;
    },
    restore: listen,
    /** How many connections pass through now (client and upstream sides counted once). */
    get connections() {
      return sockets.size / 2;
    },
    close() {
      return this.cut();
    },
  };
}
