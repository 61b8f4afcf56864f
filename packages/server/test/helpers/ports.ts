import net from 'node:net';

/** Whether something accepts TCP connections on a loopback port (a broker or server a test started). */
export const listening = (port: number): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
