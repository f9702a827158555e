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
  { name: 'advice', load: () => import('./advice.js') },
  { name: 'train', load: () => import('./train.js') },
  { name: 'tournament', load: () => import('./tournament.js') },
  { name: 'agents', load: () => import('./agents.js') },
  { name: 'python', load: () => import('./python.js') },
];

const USAGE = `Usage: npm run bench [-- SECTION...]\n\nRuns every benchmark section, or only those named: ${sections.map((s) => s.name).join(', ')}.\n`;

/** The sections asked for (all when none is named); --help, or an unknown name, answers and exits. */
function chosenSections(args: readonly string[]): Section[] {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const unknown = args.filter((name) => !sections.some((section) => section.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`bench: no section ${unknown.map((name) => JSON.stringify(name)).join(', ')}\n${USAGE}`);
    process.exit(2);
  }
  return args.length === 0 ? sections : sections.filter((section) => args.includes(section.name));
}

async function main(): Promise<void> {
  const chosen = chosenSections(process.argv.slice(2));
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`yaniv-arena bench — ${cpu}, ${os.cpus().length} cores, Node ${process.version}`);
  for (const section of chosen) {
    console.log(`\n## ${section.name}`);
    const mod = await section.load();
    await mod.run();
  }
}

await main();
