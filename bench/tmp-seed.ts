import { connect, seedScale, FULL_SIZE } from './scale-seed';
const c = await connect('postgres://postgres@127.0.0.1:5432/bench_scale_schema');
const t = performance.now();
await seedScale(c, FULL_SIZE, console.log);
console.log('total', (performance.now() - t) / 1000);
await c.end();
