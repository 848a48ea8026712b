/**
 * Reading a document tree: its definitions by kind, its citations, its blocks in order.
 * Small walks over mdast, so readers never need a pattern over text.
 */
import type { Nodes, Root } from 'mdast';
import { toString as textOf } from 'mdast-util-to-string';
import {
  type Component,
  type Definition,
  type DefinitionOf,
  type DefinitionType,
  isDefinition,
} from './types.ts';

/**
 * Visits every node of a tree, depth first, in document order; `ancestors` ends with the
 * node's parent. Return `false` to skip a node's children.
 *
 * @example
 * visit(tree, (node) => { if (node.type === 'code') blocks.push(node); });
 */
export function visit(
  tree: Nodes,
  visitor: (node: Nodes, ancestors: readonly Nodes[]) => unknown,
  ancestors: Nodes[] = [],
): void {
  if (visitor(tree, ancestors) === false || !('children' in tree)) return;
  ancestors.push(tree);
  for (const child of tree.children as Nodes[]) visit(child, visitor, ancestors);
  ancestors.pop();
}

/**
 * Every definition of a tree in document order (nested ones after their parent), or those
 * of one type.
 *
 * @example
 * definitionsOf(tree, 'task').map((task) => task.dependsOn);
 */
export function definitionsOf(tree: Nodes): Definition[];
export function definitionsOf<K extends DefinitionType>(tree: Nodes, type: K): DefinitionOf<K>[];
export function definitionsOf(tree: Nodes, type?: DefinitionType): Definition[] {
  const found: Definition[] = [];
  visit(tree, (node) => {
    if (isDefinition(node) && (type === undefined || node.type === type)) found.push(node);
  });
  return found;
}

/**
 * The components of an architecture's tree, in order.
 *
 * @example
 * componentsOf(tree).map((component) => component.name);
 */
export function componentsOf(tree: Nodes): Component[] {
  const found: Component[] = [];
  visit(tree, (node) => {
    if (node.type === 'component') found.push(node);
  });
  return found;
}

/**
 * The IDs a tree cites (its `idRef` nodes), each once, in order: code, inline code and
 * escaped text never cite.
 *
 * @example
 * citedIds(parseDocument('See FR-1 and `FR-2`.')); // ['FR-1']
 */
export function citedIds(tree: Nodes): string[] {
  const found = new Set<string>();
  visit(tree, (node) => {
    if (node.type === 'idRef') found.add(node.value);
  });
  return [...found];
}

/**
 * A tree without positions, for comparing trees.
 *
 * @example
 * expect(withoutPositions(parseDocument(renderDocument(tree)))).toEqual(withoutPositions(tree));
 */
export function withoutPositions<T extends Nodes>(tree: T): T {
  return JSON.parse(JSON.stringify(tree, (key, value) => (key === 'position' ? undefined : value)));
}

/**
 * The text of a document's title: its first level-1 heading, or undefined.
 *
 * @example
 * documentTitle(parseDocument('# Readme\n\nText')); // 'Readme'
 */
export function documentTitle(tree: Root): string | undefined {
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth === 1) return textOf(node).trim() || undefined;
  }
  return undefined;
}
