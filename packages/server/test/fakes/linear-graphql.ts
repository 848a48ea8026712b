/**
 * A small GraphQL executor for the fake Linear API. `@linear/sdk` sends its generated
 * documents (fragments that select every field of a type); the fake answers them from plain
 * objects without Linear's schema, which the SDK does not ship. Documents are parsed with the
 * `graphql` package; fields are resolved by name, aliases and fragments honoured, arguments
 * read with the request's variables. A field the fake does not hold answers null, or the
 * empty value the SDK's models need where they dereference it (see DEFAULTS).
 */
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';

/** A value the fake holds: a scalar, an object, a list, or a resolver taking arguments. */
export type Resolved =
  | string
  | number
  | boolean
  | null
  | undefined
  | Resolved[]
  | { [field: string]: Resolved }
  | ((args: Record<string, unknown>) => Resolved);

/** A GraphQL error as Linear words it (extensions.type is what the SDK classifies by). */
export class LinearGraphQLError extends Error {
  readonly extensions: Record<string, unknown>;
  constructor(message: string, extensions: Record<string, unknown>) {
    super(message);
    this.extensions = extensions;
  }
}

/** Fields the SDK's model constructors read without a null check: lists and objects. */
const DEFAULTS: Record<string, 'list' | 'object'> = {
  reactions: 'list',
  sharedAccess: 'object',
  pullRequests: 'list',
  sharedWithUsers: 'list',
};

export interface Operation {
  kind: 'query' | 'mutation';
  /** The operation's name (`issue`, `issueCreate`, …): the SDK names each after its field. */
  name: string | undefined;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

/** Parses a request's query (throws the graphql package's GraphQLError on bad syntax). */
export function parseOperation(query: string): Operation {
  const document = parse(query);
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation)
    throw new LinearGraphQLError('No operation in the document', { type: 'graphql error' });
  return {
    kind: operation.operation === 'mutation' ? 'mutation' : 'query',
    name: operation.name?.value,
    document,
    operation,
  };
}

interface Context {
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function fieldsOf(selection: SelectionSetNode, context: Context, typename?: unknown): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const node of selection.selections) {
    if (node.kind === Kind.FIELD) fields.push(node);
    else if (node.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = context.fragments.get(node.name.value);
      if (fragment && applies(fragment.typeCondition.name.value, typename)) {
        fields.push(...fieldsOf(fragment.selectionSet, context, typename));
      }
    } else if (!node.typeCondition || applies(node.typeCondition.name.value, typename)) {
      fields.push(...fieldsOf(node.selectionSet, context, typename));
    }
  }
  return fields;
}

/** Without a schema, a type condition is checked against the object's __typename if known. */
function applies(condition: string, typename: unknown): boolean {
  return typeof typename !== 'string' || typename === condition;
}

function argumentsOf(field: FieldNode, context: Context): Record<string, unknown> {
  return Object.fromEntries(
    (field.arguments ?? []).map((argument) => [
      argument.name.value,
      valueFromASTUntyped(argument.value, context.variables),
    ]),
  );
}

function complete(value: Resolved, field: FieldNode, context: Context): unknown {
  const resolved = typeof value === 'function' ? value(argumentsOf(field, context)) : value;
  if (resolved === undefined || resolved === null) return null;
  if (Array.isArray(resolved)) return resolved.map((item) => complete(item, field, context));
  if (!field.selectionSet || typeof resolved !== 'object') return resolved;
  const object = resolved as Record<string, Resolved>;
  const result: Record<string, unknown> = {};
  for (const child of fieldsOf(field.selectionSet, context, object.__typename)) {
    const name = child.name.value;
    const key = child.alias?.value ?? name;
    if (key in result) continue;
    let childValue = object[name];
    if (childValue === undefined && name !== '__typename') {
      const fallback = DEFAULTS[name];
      childValue = fallback === 'list' ? [] : fallback === 'object' ? {} : null;
    }
    result[key] = complete(childValue, child, context);
  }
  return result;
}

/**
 * Runs an operation against root resolvers; a root field the fake lacks is a GraphQL error,
 * as an unknown field is on Linear. Errors thrown by resolvers become the response's errors.
 */
export function execute(
  operation: Operation,
  variables: Record<string, unknown>,
  root: Record<string, (args: Record<string, unknown>) => Resolved>,
): { data: Record<string, unknown> | null; errors?: LinearGraphQLError[] } {
  const context: Context = {
    variables,
    fragments: new Map(
      operation.document.definitions
        .filter((one): one is FragmentDefinitionNode => one.kind === Kind.FRAGMENT_DEFINITION)
        .map((fragment) => [fragment.name.value, fragment]),
    ),
  };
  const data: Record<string, unknown> = {};
  try {
    for (const field of fieldsOf(operation.operation.selectionSet, context)) {
      const resolver = root[field.name.value];
      if (!resolver) {
        throw new LinearGraphQLError(`Cannot query field "${field.name.value}"`, {
          type: 'graphql error',
          code: 'GRAPHQL_VALIDATION_FAILED',
        });
      }
      data[field.alias?.value ?? field.name.value] = complete(resolver, field, context);
    }
  } catch (error) {
    if (error instanceof LinearGraphQLError) return { data: null, errors: [error] };
    throw error;
  }
  return { data };
}

const COMPARATORS = new Set([
  'eq',
  'neq',
  'in',
  'nin',
  'eqIgnoreCase',
  'neqIgnoreCase',
  'contains',
  'containsIgnoreCase',
  'notContains',
  'startsWith',
  'null',
]);

function compare(value: unknown, comparator: Record<string, unknown>): boolean {
  return Object.entries(comparator).every(([op, expected]) => {
    const text = typeof value === 'string' ? value : '';
    switch (op) {
      case 'eq':
        return value === expected;
      case 'neq':
        return value !== expected;
      case 'in':
        return Array.isArray(expected) && expected.includes(value);
      case 'nin':
        return Array.isArray(expected) && !expected.includes(value);
      case 'eqIgnoreCase':
        return text.toLowerCase() === String(expected).toLowerCase();
      case 'neqIgnoreCase':
        return text.toLowerCase() !== String(expected).toLowerCase();
      case 'contains':
        return text.includes(String(expected));
      case 'containsIgnoreCase':
        return text.toLowerCase().includes(String(expected).toLowerCase());
      case 'notContains':
        return !text.includes(String(expected));
      case 'startsWith':
        return text.startsWith(String(expected));
      default:
        return expected ? value === null || value === undefined : value != null;
    }
  });
}

/**
 * Linear's filter language over plain objects: comparators (`eq`, `in`, `contains`,
 * `eqIgnoreCase`, `null`…), nested relation filters, `and` and `or`.
 */
export function matches(object: unknown, filter: unknown): boolean {
  if (!filter || typeof filter !== 'object') return true;
  const record = (object ?? {}) as Record<string, unknown>;
  return Object.entries(filter as Record<string, unknown>).every(([key, condition]) => {
    if (key === 'and') return (condition as unknown[]).every((one) => matches(object, one));
    if (key === 'or') return (condition as unknown[]).some((one) => matches(object, one));
    const value = record[key];
    const keys = Object.keys((condition ?? {}) as object);
    if (keys.some((one) => COMPARATORS.has(one))) {
      return compare(value, condition as Record<string, unknown>);
    }
    if (value === null || value === undefined) return false;
    return matches(value, condition);
  });
}

/** Relay pagination as Linear does it: `first` (default 50), `after` an opaque cursor. */
export function connection<T>(
  items: T[],
  args: Record<string, unknown>,
  view: (item: T) => Resolved,
  cap = 250,
): Resolved {
  const first = Math.min(typeof args.first === 'number' ? args.first : 50, cap);
  const start =
    typeof args.after === 'string' ? Number(Buffer.from(args.after, 'base64url').toString()) : 0;
  const page = items.slice(start, start + first);
  const end = start + page.length;
  // No __typename: the SDK's connection fragments name each connection's own type.
  return {
    nodes: page.map(view),
    pageInfo: {
      __typename: 'PageInfo',
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: page.length > 0 ? Buffer.from(String(start)).toString('base64url') : null,
      endCursor: page.length > 0 ? Buffer.from(String(end)).toString('base64url') : null,
    },
  };
}
