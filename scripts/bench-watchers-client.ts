/**
 * The clients of the watchers group (scripts/bench-watchers.ts), in a process of their own:
 * told over IPC how many long-polls to open, each on its own connection, it reports when
 * every socket is connected, then the wall-clock time (ms, sub-millisecond) at which each
 * answer arrived, with its status.
 */
import http from 'node:http';

interface Order {
  url: string;
  key: string;
  count: number;
}

const now = () => performance.timeOrigin + performance.now();

process.once('message', (order: Order) => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const arrivals: number[] = [];
  const statuses: Record<string, number> = {};
  let connected = 0;
  let settled = 0;
  const settle = () => {
    if (++settled === order.count) process.send!({ arrivals, statuses });
  };
  for (let i = 0; i < order.count; i++) {
    const req = http.get(
      order.url,
      { agent, headers: { authorization: `Bearer ${order.key}`, prefer: 'wait=60' } },
      (res) => {
        res.resume();
        res.on('end', () => {
          arrivals.push(now());
          statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
          settle();
        });
      },
    );
    req.on('socket', (socket) =>
      socket.once('connect', () => {
        if (++connected === order.count) process.send!({ connected });
      }),
    );
    req.on('error', (error) => {
      statuses[error.message] = (statuses[error.message] ?? 0) + 1;
      settle();
    });
  }
});
