// The code examples a reader copies first: each ```ts block of README.md and docs/ placed right
// after the marker below is type-checked against the real modules and run. The examples import
// as a script at the repository root would ('./env/index.js'); here those paths point at the sources.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MARKER = '<!-- example: test/docExamples.test.ts type-checks and runs it -->';
const DOCUMENTS = ['README.md', 'docs/env.md'];

interface Example {
  name: string;
  code: string;
}

/** The marked examples of a markdown file, their relative imports resolved from the repository root. */
function markedExamples(document: string, text: string): Example[] {
  const blocks = text
    .split(MARKER)
    .slice(1)
    .map((after) => /^\n```ts\n([\s\S]*?)\n```/.exec(after));
  return blocks.map((block, i) => {
    if (!block) throw new Error(`${document}: marker ${i + 1} is not followed by a \`\`\`ts block`);
    return {
      name: `${document} example ${i + 1}`,
      code: block[1].replace(/(from\s+')(\.\.?\/[^']+)'/g, (_, from: string, path: string) => `${from}${join(ROOT, path)}'`),
    };
  });
}

const examples = DOCUMENTS.flatMap((document) => markedExamples(document, readFileSync(join(ROOT, document), 'utf8')));
const folder = mkdtempSync(join(tmpdir(), 'yaniv-examples-'));
// .mts: an ES module wherever it sits, as the project's own files are.
const files = examples.map((example, i) => {
  const file = join(folder, `example-${i + 1}.mts`);
  writeFileSync(file, example.code);
  return file;
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('documentation examples', () => {
  it('README.md and docs/env.md each mark their example', () => {
    expect(examples.map((e) => e.name)).toEqual(['README.md example 1', 'docs/env.md example 1']);
    expect(examples.every((e) => e.code.includes(join(ROOT, 'env/index.js')))).toBe(true);
  });

  it('type-check against the project with its compiler options', () => {
    const configFile = join(ROOT, 'tsconfig.json');
    const { config } = ts.readConfigFile(configFile, ts.sys.readFile.bind(ts.sys)) as { config: unknown };
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configFile);
    const program = ts.createProgram(files, { ...options, noEmit: true, incremental: false, declaration: false });
    const problems = files.flatMap((file, i) => {
      const source = program.getSourceFile(file);
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        return `${examples[i].name}, line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    });
    expect(problems).toEqual([]);
  }, 60_000);

  it.each(examples.map((example, i) => [example.name, files[i]]))('%s runs', async (_name, file) => {
    await expect(import(pathToFileURL(file).href)).resolves.toBeDefined();
  });
});
