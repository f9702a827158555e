// @ts-check
/**
 * `yaniv/no-type-cycle`, the half of the cycle rule import-x cannot do: import-x/no-cycle skips
 * type-only imports (erased when compiled), so a cycle that closes through an `import type` passes
 * it. This rule follows every import of the project — values, types, re-exports, `import()` and
 * `import('…').T` — resolved by TypeScript over the program typed linting already built, and
 * reports an import that closes a cycle through at least one type-only edge (a cycle of values
 * alone is import-x/no-cycle's to report, once). Components are Tarjan's, once per program.
 */
import path from 'node:path';
import ts from 'typescript';

/** @typedef {{ target: string; typeOnly: boolean; start: number; end: number }} Edge */

/** @param {ts.ImportDeclaration} node */
function importsOnlyTypes(node) {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** @param {ts.ExportDeclaration} node */
function exportsOnlyTypes(node) {
  const named = node.exportClause;
  return node.isTypeOnly || (!!named && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
}

/** The project-local imports of a file, each resolved to its file. @returns {Edge[]} */
function edgesOf(/** @type {ts.SourceFile} */ file, /** @type {ts.CompilerOptions} */ options) {
  /** @type {Edge[]} */
  const edges = [];
  /** @param {ts.Node} specifier @param {boolean} typeOnly */
  const add = (specifier, typeOnly) => {
    if (!ts.isStringLiteralLike(specifier) || !specifier.text.startsWith('.')) return;
    const resolved = ts.resolveModuleName(specifier.text, file.fileName, options, ts.sys).resolvedModule;
    if (!resolved || resolved.isExternalLibraryImport) return;
    edges.push({ target: path.resolve(resolved.resolvedFileName), typeOnly, start: specifier.getStart(file), end: specifier.getEnd() });
  };
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importsOnlyTypes(node));
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node.moduleSpecifier, exportsOnlyTypes(node));
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0])
      add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return edges;
}

/** Tarjan's strongly connected components: each file's component id. @param {Map<string, string[]>} graph */
function components(graph) {
  /** @type {Map<string, number>} */ const index = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {Map<string, number>} */ const component = new Map();
  /** @type {string[]} */ const stack = [];
  const onStack = new Set();
  let next = 0;
  /** @param {string} node */
  const connect = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(/** @type {number} */ (low.get(node)), /** @type {number} */ (low.get(target))));
      } else if (onStack.has(target))
        low.set(node, Math.min(/** @type {number} */ (low.get(node)), /** @type {number} */ (index.get(target))));
    }
    if (low.get(node) !== index.get(node)) return;
    let member;
    do {
      member = /** @type {string} */ (stack.pop());
      onStack.delete(member);
      component.set(member, /** @type {number} */ (index.get(node)));
    } while (member !== node);
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return component;
}

/** @type {WeakMap<ts.Program, { edges: Map<string, Edge[]>; all: Map<string, number>; values: Map<string, number> }>} */
const analyses = new WeakMap();

/** The import graph of a program and its components, with every edge and with value edges only. @param {ts.Program} program */
function analyse(program) {
  let analysis = analyses.get(program);
  if (analysis) return analysis;
  const options = program.getCompilerOptions();
  /** @type {Map<string, Edge[]>} */
  const edges = new Map();
  for (const file of program.getSourceFiles())
    if (!program.isSourceFileFromExternalLibrary(file) && !file.isDeclarationFile)
      edges.set(path.resolve(file.fileName), edgesOf(file, options));
  const graph = (/** @type {(e: Edge) => boolean} */ keep) =>
    new Map([...edges].map(([file, out]) => [file, out.filter(keep).map((e) => e.target)]));
  analysis = { edges, all: components(graph(() => true)), values: components(graph((e) => !e.typeOnly)) };
  analyses.set(program, analysis);
  return analysis;
}

/** A shortest route of imports from `from` back to `to`, for the message. @param {Map<string, Edge[]>} edges */
function route(edges, from, to) {
  /** @type {Map<string, string>} */
  const previous = new Map([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = /** @type {string} */ (queue.shift());
    if (node === to) break;
    for (const { target } of edges.get(node) ?? [])
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
  }
  const chain = [to];
  while (chain[0] !== from && previous.has(chain[0])) chain.unshift(/** @type {string} */ (previous.get(chain[0])));
  return chain;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noTypeCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Import cycles that close through a type-only import (import-x/no-cycle reports those of values)' },
    schema: [],
    messages: { cycle: 'Import cycle through a type-only import: {{chain}}. Move the shared type to a module both import.' },
  },
  create(context) {
    const program = context.sourceCode.parserServices?.program;
    if (!program) return {};
    return {
      Program() {
        const { edges, all, values } = analyse(/** @type {ts.Program} */ (program));
        const me = path.resolve(context.filename);
        for (const edge of edges.get(me) ?? []) {
          if (all.get(edge.target) !== all.get(me)) continue;
          if (!edge.typeOnly && values.get(edge.target) === values.get(me)) continue;
          const chain = [me, ...route(edges, edge.target, me)].map((file) => path.relative(context.cwd, file)).join(' → ');
          const loc = { start: context.sourceCode.getLocFromIndex(edge.start), end: context.sourceCode.getLocFromIndex(edge.end) };
          context.report({ loc, messageId: 'cycle', data: { chain } });
        }
      },
    };
  },
};
