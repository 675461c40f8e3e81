// Test helper: the smallest SMTP server nodemailer's verify() talks to (greeting, EHLO, AUTH
// PLAIN/LOGIN, QUIT), on 127.0.0.1, with one accepted login.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type FakeSmtp = { port: number; url: (user?: string, password?: string) => string; close: () => Promise<void> };

export async function startFakeSmtp(login = { user: 'shop', password: 'secret' }): Promise<FakeSmtp> {
  const sockets = new Set<Socket>();
  const plain = Buffer.from(`\0${login.user}\0${login.password}`).toString('base64');
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let pending: 'user' | 'password' | null = null;
    let user = '';
    let buffer = '';
    reply('220 fake.smtp ESMTP ready');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (pending === 'user') {
          user = Buffer.from(line, 'base64').toString('utf8');
          pending = 'password';
          reply('334 UGFzc3dvcmQ6');
        } else if (pending === 'password') {
          pending = null;
          const password = Buffer.from(line, 'base64').toString('utf8');
          reply(user === login.user && password === login.password ? '235 2.7.0 Authentication successful' : '535 5.7.8 Authentication credentials invalid');
        } else if (/^(EHLO|HELO)/i.test(line)) {
          reply('250-fake.smtp');
          reply('250 AUTH PLAIN LOGIN');
        } else if (/^AUTH PLAIN /i.test(line)) {
          reply(line.slice('AUTH PLAIN '.length) === plain ? '235 2.7.0 Authentication successful' : '535 5.7.8 Authentication credentials invalid');
        } else if (/^AUTH LOGIN/i.test(line)) {
          pending = 'user';
          reply('334 VXNlcm5hbWU6');
        } else if (/^QUIT/i.test(line)) {
          reply('221 2.0.0 Bye');
          socket.end();
        } else {
          reply('250 OK');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (user = login.user, password = login.password) => `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
