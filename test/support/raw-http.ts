// One raw HTTP/1.1 exchange over a loopback socket, for the tests that must send what fetch() will
// not (a foreign or repeated Host line, HTTP/1.0 without Host, a control character).
import { connect } from 'node:net';

/** Sends raw request bytes (latin1, so a byte above 0x7F goes out as one byte) and returns `<status> <body>`, the body de-chunked. */
export function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 'none';
      const split = data.indexOf('\r\n\r\n');
      const head = split === -1 ? data : data.slice(0, split);
      let body = split === -1 ? '' : data.slice(split + 4);
      if (/\r\ntransfer-encoding: chunked/i.test(head)) body = dechunk(body);
      resolve(`${status} ${body}`);
    });
    socket.write(Buffer.from(bytes, 'latin1'));
  });
}

/** The data of a chunked body, up to the last chunk. */
export function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (end === -1 || !(size > 0)) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 4 + size);
  }
}
