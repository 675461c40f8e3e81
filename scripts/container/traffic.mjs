// The container test's buyers and readers, through the stack's proxy (scripts/test-container.sh):
//   node traffic.mjs purchase <base>                one sandbox purchase; prints its checkout id
//   node traffic.mjs load <base> <stop-command>     readers and buyers while <stop-command> runs
//                                                   (stopping a replica); prints a JSON summary
// The proxy's certificate is its own local CA's (TLS_ISSUER=internal): not verified here.
import { request, Agent } from 'node:https';
import { execFile } from 'node:child_process';

const agent = new Agent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: false });
const [mode, base, stopCommand] = process.argv.slice(2);
const origin = new URL(base).origin;

function send(method, path, body, cookie) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      new URL(path, base),
      {
        method,
        agent,
        timeout: 30_000,
        headers: { origin, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...(cookie ? { cookie } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text, cookies: res.headers['set-cookie'] ?? [] }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

let retriedUnavailable = 0;
const MAX_RETRIES = 2;

/**
 * A request as a person at the page sends it: an answer of 503 with Retry-After ("try again in a
 * few seconds": the shop could not get a database connection in time, which a replica's remaining
 * twin can meet on a starved machine while it takes over the traffic) is sent again after the wait
 * it names, at most twice. Lost is only what stays unanswered or refused.
 */
async function sendAsAPerson(method, path, body, cookie) {
  for (let attempt = 0; ; attempt++) {
    const answer = await send(method, path, body, cookie);
    const wait = Number(answer.headers['retry-after']);
    if (answer.status !== 503 || !(wait > 0) || attempt === MAX_RETRIES) return answer;
    retriedUnavailable += 1;
    await new Promise((done) => setTimeout(done, Math.min(wait, 10) * 1000));
  }
}

async function ok(method, path, body, cookie) {
  const answer = await sendAsAPerson(method, path, body, cookie);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return JSON.parse(answer.text);
}

let buyers = 0;
/**
 * A buyer in a browser of their own: the landing page gives it the shop's browser id (a cookie),
 * which the anonymous-checkout limit counts by (every buyer here comes from one address); then a
 * checkout paid with the sandbox's 4242 card, as the checkout page does. Returns its id.
 */
async function purchase() {
  buyers += 1;
  const email = `container-${process.pid}-${buyers}@example.com`;
  const landing = await send('GET', '/');
  if (landing.status !== 200) throw new Error(`GET /: ${landing.status}`);
  const cookie = landing.cookies.map((header) => header.split(';')[0]).join('; ');
  const { sessionId } = await ok('POST', '/api/create-checkout', { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: 'container-test', originPage: '/' }, cookie);
  await ok('POST', `/api/sandbox/checkout/${sessionId}/pay`, { email, cardNumber: '4242 4242 4242 4242', expiry: '12 / 39', cvc: '123', name: 'Container Buyer' }, cookie);
  const status = await ok('GET', `/api/sandbox/checkout/${sessionId}`, undefined, cookie);
  if (status.status !== 'complete') throw new Error(`checkout ${sessionId} is ${status.status} after paying`);
  return sessionId;
}

// not /readyz: it is one instance's probe for the proxy, and a stopping instance's says 503 on purpose
const READS = ['/healthz', '/api/site', '/api/content/guides', '/eu'];

if (mode === 'purchase') {
  console.log(await purchase());
} else if (mode === 'load') {
  const summary = { requests: 0, failed: 0, purchases: 0, purchasesFailed: 0, errors: [] };
  let running = true;
  const note = (error) => summary.errors.length < 10 && summary.errors.push(String(error?.message ?? error));
  // a buyer or reader who met an error tries again a moment later, as a person would (an error
  // answered at once must not turn into thousands of tries that say nothing more)
  const pause = () => new Promise((done) => setTimeout(done, 250));
  const reader = async (i) => {
    for (let n = i; running; n += 1) {
      const path = READS[n % READS.length];
      summary.requests += 1;
      try {
        const answer = await sendAsAPerson('GET', path);
        // /api/content/guides is for members: 401 is its answer to a visitor, and an answer
        if (answer.status >= 500 || answer.status === 0) throw new Error(`GET ${path}: ${answer.status}`);
      } catch (error) {
        summary.failed += 1;
        note(error);
        await pause();
      }
    }
  };
  const buyer = async () => {
    while (running) {
      try {
        await purchase();
        summary.purchases += 1;
      } catch (error) {
        summary.purchasesFailed += 1;
        note(error);
        await pause();
      }
    }
  };
  const workers = [...Array.from({ length: 6 }, (_, i) => reader(i)), buyer(), buyer()];
  // traffic first, then the replica stops in the middle of it, then a little more
  await new Promise((done) => setTimeout(done, 3_000));
  const before = summary.requests;
  const stopped = await new Promise((done) => execFile('sh', ['-c', stopCommand], { timeout: 120_000 }, (error, stdout, stderr) => done({ error, stdout, stderr })));
  summary.duringStop = summary.requests - before;
  if (stopped.error) note(`the stop command failed: ${stopped.error.message} ${stopped.stderr}`);
  await new Promise((done) => setTimeout(done, 5_000));
  running = false;
  await Promise.all(workers);
  console.log(JSON.stringify({ ...summary, retriedUnavailable }));
  agent.destroy();
  if (stopped.error) process.exitCode = 1;
} else {
  console.error('usage: node traffic.mjs purchase|load <base url> [stop command]');
  process.exitCode = 2;
}
