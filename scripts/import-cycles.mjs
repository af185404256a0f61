#!/usr/bin/env node
// No import cycles anywhere, type-only and dynamic imports included: a cycle through `import type` or `import()` is
// harmless at run time but still ties two modules into one (ESLint's import-x/no-cycle skips both kinds, so this
// check complements it). Part of `npm run lint`; prints each cycle and exits 1 when there is one.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'cdk.out', '.data', '.cdk']);

/** Every TypeScript file under `dir` (declaration files and build output left out). */
export function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

function compilerOptions(tsconfigPath) {
  const { config, error } = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config, ts.sys, dirname(tsconfigPath)).options;
}

/**
 * The import graph of `files`: every import, export-from, `import type` and `import()` that resolves (with the
 * options of the tsconfig `optionsFor(file)` names) to another file of the set.
 */
export function importGraph(files, optionsFor) {
  const known = new Set(files.map((file) => resolve(file)));
  const graph = new Map();
  for (const file of known) {
    const options = optionsFor(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved && known.has(resolve(resolved))) targets.add(resolve(resolved));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of more than one file, or a file importing itself (Tarjan's algorithm). */
export function findCycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (start) => {
    // Iterative, so a long import chain cannot overflow the call stack.
    const work = [{ node: start, edges: [...(graph.get(start) ?? [])], at: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      if (frame.at < frame.edges.length) {
        const target = frame.edges[frame.at++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edges: [...(graph.get(target) ?? [])], at: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        if (group.length > 1 || graph.get(frame.node)?.has(frame.node)) cycles.push(group.sort());
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** The cycles of this repository: the Node code with tsconfig.json, the web app with web/tsconfig.json. */
export function repositoryCycles(root) {
  const nodeOptions = compilerOptions(join(root, 'tsconfig.json'));
  const webOptions = compilerOptions(join(root, 'web', 'tsconfig.json'));
  const webDir = join(root, 'web') + '/';
  const files = ['lambdas', 'lib', 'bin', 'scripts', 'bench', 'test', 'web'].flatMap((dir) => sourceFiles(join(root, dir)));
  return findCycles(importGraph(files, (file) => (file.startsWith(webDir) ? webOptions : nodeOptions)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(import.meta.dirname, '..');
  const cycles = repositoryCycles(root);
  for (const cycle of cycles) console.error(`import cycle: ${cycle.map((file) => relative(root, file)).join(' ↔ ')}`);
  if (cycles.length) {
    console.error(`${cycles.length} import cycle(s): move what both sides need into a module that neither imports.`);
    process.exit(1);
  }
  console.log('no import cycles');
}
