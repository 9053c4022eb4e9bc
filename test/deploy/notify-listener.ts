import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * A stand-in for systemd's notify socket: a unix datagram socket (a path, or an abstract '@name')
 * bound by a small python3 program, because Node cannot bind one. Like the service manager it reads
 * the sender's credentials and closes passed file descriptors (which completes systemd-notify's
 * BARRIER=1 round trip). Test-only: the daemon itself never runs python.
 */
const LISTENER = `
import array, json, os, socket, struct, sys
address = sys.argv[1]
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind('\\0' + address[1:] if address.startswith('@') else address)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
print(json.dumps({'listening': address}), flush=True)
while True:
    data, ancillary, _flags, _addr = sock.recvmsg(65536, socket.CMSG_SPACE(12) + socket.CMSG_SPACE(4 * 16))
    pid = None
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds = array.array('i')
            fds.frombytes(payload[: len(payload) - len(payload) % 4])
            for fd in fds:
                os.close(fd)
        elif level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = struct.unpack('iII', payload[:12])[0]
    print(json.dumps({'datagram': data.decode('utf-8', 'replace'), 'pid': pid}), flush=True)
`;

export interface NotifyDatagram {
  /** The message as sent: VAR=VALUE lines. */
  readonly text: string;
  readonly assignments: ReadonlyMap<string, string>;
  /** The sender's pid from SCM_CREDENTIALS. */
  readonly pid: number | undefined;
}

export interface NotifyListener {
  /** What to put in NOTIFY_SOCKET. */
  readonly address: string;
  /** Every datagram so far, BARRIER=1 round trips left out. */
  readonly received: readonly NotifyDatagram[];
  /** Resolves once `count` datagrams (barriers left out) have arrived; rejects after `withinMs`. */
  waitFor(count: number, withinMs?: number): Promise<readonly NotifyDatagram[]>;
  close(): Promise<void>;
}

export async function startNotifyListener(address: string): Promise<NotifyListener> {
  const child = spawn('python3', ['-c', LISTENER, address], { stdio: ['ignore', 'pipe', 'pipe'] });
  const received: NotifyDatagram[] = [];
  const waiters: Array<() => void> = [];
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    void exited.then(() => reject(new Error(`the python3 notify listener exited: ${stderr}`)));
    lines.once('line', () => resolve());
  });
  lines.on('line', (line) => {
    const parsed = JSON.parse(line) as { datagram: string; pid: number | null };
    if (parsed.datagram === 'BARRIER=1') return;
    const assignments = new Map(parsed.datagram.split('\n').map((l): [string, string] => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    received.push({ text: parsed.datagram, assignments, pid: parsed.pid ?? undefined });
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    address,
    received,
    waitFor: (count, withinMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} notify datagrams, got ${received.length}: ${JSON.stringify(received.map((d) => d.text))}`)), withinMs);
        const check = (): void => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve([...received]);
          } else {
            waiters.push(check);
          }
        };
        check();
      }),
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
