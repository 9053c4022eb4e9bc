import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { HttpTransportError } from '../../src/venue/http-port.js';
import { createSocketHttp } from '../../src/venue/socket-http.js';
import { handlesMadeWhile, holds } from '../support/held-handles.js';
import { describeTransport } from './transport-suite.js';

describeTransport('socket (stratd HTTP/1.1)', createSocketHttp, { skipsUnaskedContinue: true, reuseSlack: 0, retiresOnStrayBytes: true });

describe('the socket transport writes the request itself', () => {
  test('the request head, byte for byte: Host, the headers as given, then the defaults', async () => {
    const heads: string[] = [];
    const sockets: Socket[] = [];
    const server = createTcpServer((socket) => {
      sockets.push(socket);
      let seen = '';
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        const end = seen.indexOf('\r\n\r\n');
        if (end < 0) return;
        heads.push(seen.slice(0, end));
        seen = seen.slice(end + 4);
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const http = createSocketHttp();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await http.send({ method: 'GET', url: `${url}/x?a=1`, headers: { accept: 'application/json' }, timeoutMs: 3000 })).body).toBe('{}');
      expect(heads[0]).toMatch(/^GET \/x\?a=1 HTTP\/1\.1\r\nHost: 127\.0\.0\.1:\d+\r\naccept: application\/json\r\nuser-agent: stratd\r\naccept-encoding: gzip, deflate, br$/);
    } finally {
      http.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the socket transport keeps one idle timer per connection', () => {
  test('a reply slower than idleSocketMs is not cut by the idle timer, and its connection is reused after it', async () => {
    const sockets: Socket[] = [];
    let requests = 0;
    const server = createTcpServer((socket) => {
      sockets.push(socket);
      let seen = '';
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        for (let end = seen.indexOf('\r\n\r\n'); end >= 0; end = seen.indexOf('\r\n\r\n')) {
          seen = seen.slice(end + 4);
          // The first reply comes long after the idle timeout (30 ms); the second at once.
          const reply = (): void => void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
          if (requests++ === 0) setTimeout(reply, 300);
          else reply();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const http = createSocketHttp({ idleSocketMs: 30 });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
      expect((await http.send({ method: 'GET', url, headers: {}, timeoutMs: 5000 })).body).toBe('{}');
      expect((await http.send({ method: 'GET', url, headers: {}, timeoutMs: 5000 })).body).toBe('{}');
      expect(sockets).toHaveLength(1);
    } finally {
      http.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('an idle socket transport holds no process up', () => {
  test('a request in flight holds the process up by its deadline timer, never by its connection', async () => {
    const sockets: Socket[] = [];
    let asked: () => void = () => undefined;
    const received = new Promise<void>((resolve) => (asked = resolve));
    // A server that reads the request and never answers, holding nothing up itself.
    const server = createTcpServer((socket) => {
      socket.unref();
      sockets.push(socket);
      socket.on('data', () => asked());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const http = createSocketHttp();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/never`;
      let reply: Promise<unknown> = Promise.resolve();
      const made = await handlesMadeWhile(['Timeout', 'TCPWRAP'], async () => {
        reply = http.send({ method: 'GET', url, headers: {}, timeoutMs: 600_000 }).catch((error: unknown) => error);
        await received;
      });
      // The request is on the wire, unanswered: its deadline's timer holds the process, neither socket does.
      expect(made.filter((h) => h.type === 'TCPWRAP')).toHaveLength(2);
      expect(made.filter((h) => h.type === 'TCPWRAP' && holds(h)).map((h) => h.type)).toEqual([]);
      expect(made.filter((h) => h.type === 'Timeout' && holds(h))).toHaveLength(1);
      http.close();
      for (const socket of sockets) socket.destroy();
      expect(await reply).toBeInstanceOf(HttpTransportError);
    } finally {
      http.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('after a reply, neither the kept connection nor the deadline timer keeps the process up; a deadline still fires later', async () => {
    const sockets: Socket[] = [];
    const server = createTcpServer((socket) => {
      // The server's side holds nothing up either: what is left held is the client's.
      socket.unref();
      sockets.push(socket);
      let seen = '';
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        for (let end = seen.indexOf('\r\n\r\n'); end >= 0; end = seen.indexOf('\r\n\r\n')) {
          const path = seen.slice(0, end).split(' ')[1];
          seen = seen.slice(end + 4);
          // `/never` is never answered: its request must end at its deadline.
          if (path !== '/never') socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const http = createSocketHttp();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // A deadline far beyond the test: a timer that kept the process up for it would show as held.
      const made = await handlesMadeWhile(['Timeout', 'TCPWRAP'], async () => {
        for (let i = 0; i < 3; i++) expect((await http.send({ method: 'GET', url: `${url}/x`, headers: {}, timeoutMs: 600_000 })).body).toBe('{}');
      });
      // One connection, both its ends seen; and the request timer.
      expect(made.filter((h) => h.type === 'TCPWRAP')).toHaveLength(2);
      expect(made.filter((h) => h.type === 'Timeout').length).toBeGreaterThan(0);
      expect(made.filter((h) => holds(h)).map((h) => h.type)).toEqual([]);
      const error = await http.send({ method: 'GET', url: `${url}/never`, headers: {}, timeoutMs: 100 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(HttpTransportError);
      expect((error as HttpTransportError).timedOut).toBe(true);
    } finally {
      http.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
