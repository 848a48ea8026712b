/**
 * The clients of the watchers group (scripts/bench-watchers.ts), in a process of their own:
 * told over IPC how many watchers to open, each on its own connection, it reports when
 * every one is open, then the wall-clock time (ms, sub-millisecond) at which each one saw
 * the end, with its status.
 *
 * Long-polls (`Prefer: wait=60`) are open once their socket connects and see the end when
 * their answer arrives. Event streams (`keys` spread them over several keys, each key
 * holding at most 5) are open once their first event arrives and see the end when the
 * text `until` (the final event's name) does.
 */
import http from 'node:http';

export interface WatchersOrder {
  url: string;
  count: number;
  /** Long-polls: the key of every request. */
  key?: string;
  /** Event streams: request i uses keys[i % keys.length]. */
  keys?: string[];
  /** Event streams: the text whose arrival is the end. */
  until?: string;
}

const now = () => performance.timeOrigin + performance.now();

process.once('message', (order: WatchersOrder) => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const arrivals: number[] = [];
  const statuses: Record<string, number> = {};
  const count = (status: string) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  let connected = 0;
  let settled = 0;
  const open = () => {
    if (++connected === order.count) process.send!({ connected });
  };
  const settle = () => {
    if (++settled === order.count) process.send!({ arrivals, statuses });
  };
  const streams = order.keys !== undefined && order.until !== undefined;
  for (let i = 0; i < order.count; i++) {
    const headers: Record<string, string> = streams
      ? {
          authorization: `Bearer ${order.keys![i % order.keys!.length]}`,
          accept: 'text/event-stream',
        }
      : { authorization: `Bearer ${order.key}`, prefer: 'wait=60' };
    const req = http.get(order.url, { agent, headers }, (res) => {
      if (!streams) {
        res.resume();
        res.on('end', () => {
          arrivals.push(now());
          count(String(res.statusCode));
          settle();
        });
        return;
      }
      let text = '';
      let opened = false;
      let arrived = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!opened) {
          opened = true;
          open();
        }
        if (arrived) return;
        text += chunk;
        if (text.includes(order.until!)) {
          arrived = true;
          arrivals.push(now());
          count(String(res.statusCode));
          settle();
        }
      });
      res.on('end', () => {
        if (arrived) return;
        if (!opened) open();
        count(`${res.statusCode} ended without ${order.until}`);
        settle();
      });
    });
    if (!streams) req.on('socket', (socket) => socket.once('connect', open));
    req.on('error', (error) => {
      count(error.message);
      settle();
    });
  }
});
