// ESLint rule `local/no-import-circle`: a file of src/ may not sit in an import circle, type-only
// imports included (they tie two modules' designs together as much as value imports do). The
// graph is read once per lint run (scripts/import-graph.mjs).
import { dirname, relative, resolve } from 'node:path';
import { importCircles, importGraph, serverPartGraph } from './import-graph.mjs';

const SRC = resolve(import.meta.dirname, '..', 'src');
let circleOfFile = null;

function circles() {
  if (circleOfFile) return circleOfFile;
  circleOfFile = new Map();
  for (const circle of importCircles(importGraph(SRC))) {
    for (const file of circle) circleOfFile.set(file, circle);
  }
  return circleOfFile;
}

export const noImportCircle = {
  meta: { type: 'problem', docs: { description: 'forbid import circles between the files of src/' }, schema: [] },
  create(context) {
    return {
      Program(node) {
        const circle = circles().get(context.filename);
        if (!circle) return;
        const files = circle.map((file) => relative(SRC, file)).join(', ');
        context.report({ node, message: `Import circle between ${files}: one side must not import the other (move what both need into a module of its own).` });
      },
    };
  },
};

let partCircles = null;

function serverParts() {
  if (partCircles) return partCircles;
  const { partOf, graph } = serverPartGraph(importGraph(SRC), SRC);
  const circleOfPart = new Map();
  for (const circle of importCircles(graph)) for (const part of circle) circleOfPart.set(part, circle);
  partCircles = { partOf, circleOfPart };
  return partCircles;
}

/**
 * `local/no-upward-import`: the parts of src/server (each module folder, each other folder or
 * loose file) stand in floors, each above what it imports. An import that makes two parts import
 * each other, through any chain, runs back up a floor: it is reported on each file that imports a
 * part of its own circle, with the parts named, so the fix (move what both need lower) is plain.
 */
export const noUpwardImport = {
  meta: { type: 'problem', docs: { description: 'forbid imports that make two parts of src/server import each other' }, schema: [] },
  create(context) {
    return {
      ImportDeclaration(node) {
        const { partOf, circleOfPart } = serverParts();
        const from = partOf(context.filename);
        const circle = from === null ? undefined : circleOfPart.get(from);
        if (!circle || typeof node.source.value !== 'string' || !node.source.value.startsWith('.')) return;
        const to = partOf(resolve(dirname(context.filename), node.source.value) + (node.source.value.endsWith('.mjs') ? '' : '.ts'));
        if (to === null || to === from || !circle.includes(to)) return;
        context.report({ node, message: `${from} and ${to} import each other (through ${circle.join(', ')}): move what both need into a lower part, or turn the dependency around.` });
      },
    };
  },
};

export const localRules = { rules: { 'no-import-circle': noImportCircle, 'no-upward-import': noUpwardImport } };
