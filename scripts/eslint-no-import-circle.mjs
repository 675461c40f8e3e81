// ESLint rule `local/no-import-circle`: a file of src/ may not sit in an import circle, type-only
// imports included (they tie two modules' designs together as much as value imports do). The
// graph is read once per lint run (scripts/import-graph.mjs).
import { relative, resolve } from 'node:path';
import { importCircles, importGraph } from './import-graph.mjs';

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

export const localRules = { rules: { 'no-import-circle': noImportCircle } };
