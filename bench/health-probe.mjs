// The health check of `npm run bench:attacks`, run as its own process (forked with the base URLs
// as arguments) so that its timings do not wait on the bench's own event loop, which is busy
// sending the attack. Asks GET /healthz of every base URL one request after another on a
// keep-alive connection each, 5 ms apart, until the parent sends 'stop'; then sends back
// { latencies: [ms, ...] } and exits.
import { Agent, request } from 'node:http';

const bases = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, maxSockets: bases.length });
const latencies = [];
let running = true;

const once = (base) =>
  new Promise((done, fail) => {
    const started = performance.now();
    request(`${base}/healthz`, { agent }, (response) => {
      response.resume();
      response.on('end', () => {
        latencies.push(performance.now() - started);
        done();
      });
    })
      .on('error', fail)
      .end();
  });

const loops = bases.map(async (base) => {
  while (running) {
    await once(base);
    await new Promise((done) => setTimeout(done, 5));
  }
});

process.on('message', async (message) => {
  if (message !== 'stop') return;
  running = false;
  await Promise.all(loops);
  agent.destroy();
  process.send({ latencies }, () => process.exit(0));
});
process.send('ready');
