// `npm run bench`: every benchmark section, one after the other, single-threaded.
// Sections register here; each prints its own table and names the machine it runs on.
import os from 'node:os';

type Section = { name: string; load: () => Promise<{ run: () => void | Promise<void> }> };

const sections: Section[] = [
  { name: 'engine', load: () => import('./engine.js') },
  { name: 'env', load: () => import('./env.js') },
  { name: 'equity', load: () => import('./equity.js') },
  { name: 'tf', load: () => import('./tf.js') },
  { name: 'serve', load: () => import('./serve.js') },
  { name: 'train', load: () => import('./train.js') },
  { name: 'tournament', load: () => import('./tournament.js') },
  { name: 'agents', load: () => import('./agents.js') },
  { name: 'python', load: () => import('./python.js') },
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`yaniv-arena bench — ${cpu}, ${os.cpus().length} cores, Node ${process.version}`);
  for (const section of sections) {
    if (only.length > 0 && !only.includes(section.name)) continue;
    console.log(`\n## ${section.name}`);
    const mod = await section.load();
    await mod.run();
  }
}

await main();
